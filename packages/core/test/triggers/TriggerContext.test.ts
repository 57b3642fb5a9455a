import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as TriggerContext from "../../src/triggers/TriggerContext.js"

const context = FastCheck.dictionary(
  FastCheck.constantFrom("first_name", "clinic", "slot", "lang", "phone_number"),
  FastCheck.oneof(FastCheck.string(), FastCheck.integer(), FastCheck.constant(null), FastCheck.object())
)

describe("TriggerContext.merge", () => {
  it("lays the request's keys over the trigger's", () => {
    expect(
      TriggerContext.merge(
        { clinic: "Centrum", lang: "pl", doctor: { name: "Nowak", room: 4 } },
        { first_name: "Ola", lang: "en", doctor: { name: "Kowalska" } }
      )
    ).toEqual({ clinic: "Centrum", lang: "en", first_name: "Ola", doctor: { name: "Kowalska" } })
  })

  it("keeps the trigger's context when the request has none, and a null the request sends", () => {
    expect(TriggerContext.merge({ clinic: "Centrum" }, undefined)).toEqual({ clinic: "Centrum" })
    expect(TriggerContext.merge({ clinic: "Centrum" }, { clinic: null })).toEqual({ clinic: null })
  })

  it("never changes its inputs", () => {
    const trigger = { clinic: "Centrum" }
    const request = { clinic: "Wola" }
    TriggerContext.merge(trigger, request)
    expect(trigger).toEqual({ clinic: "Centrum" })
    expect(request).toEqual({ clinic: "Wola" })
  })

  it.prop(
    "every key comes from the request when it names it, else from the trigger",
    [context, context],
    ([trigger, request]) => {
      const merged = TriggerContext.merge(trigger, request)
      expect(new Set(Object.keys(merged))).toEqual(
        new Set([...Object.keys(trigger), ...Object.keys(request)])
      )
      for (const key of Object.keys(merged)) {
        expect(merged[key]).toBe(key in request ? request[key] : trigger[key])
      }
    }
  )
})
