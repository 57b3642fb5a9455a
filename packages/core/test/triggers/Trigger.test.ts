import { describe, expect, it } from "@effect/vitest"
import { FastCheck, Schema } from "effect"
import { parseTriggerId, TriggerId, triggerIdFrom } from "../../src/triggers/Trigger.js"

const alphanumeric = FastCheck.constantFrom(
  ..."0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".split("")
)
const idBody = FastCheck.array(alphanumeric, { minLength: 20, maxLength: 20 }).map((cs) => cs.join(""))

describe("Trigger ids", () => {
  it("reads a trigger id", () => {
    expect(parseTriggerId("trg_AbCdEfGhIjKlMnOpQrSt")).toBe("trg_AbCdEfGhIjKlMnOpQrSt")
  })

  it.each([
    "",
    "trg_",
    "trg_short",
    "trg_AbCdEfGhIjKlMnOpQrStU",
    "trg_AbCdEfGhIjKlMnOpQr-t",
    "TRG_AbCdEfGhIjKlMnOpQrSt",
    "agent_AbCdEfGhIjKlMnOpQrSt",
    "42"
  ])("names no trigger with %j", (segment) => {
    expect(parseTriggerId(segment)).toBeUndefined()
  })

  it.prop("every generated trigger id is valid and parses back", [idBody], ([body]) => {
    const id = triggerIdFrom(body)
    expect(id).toBe(`trg_${body}`)
    expect(Schema.is(TriggerId)(id)).toBe(true)
    expect(parseTriggerId(id)).toBe(id)
  })

  it.prop("a body of any other length names no trigger", [FastCheck.string()], ([body]) => {
    FastCheck.pre(body.length !== 20)
    expect(parseTriggerId(`trg_${body}`)).toBeUndefined()
  })
})
