import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { phrasesOf } from "../../../src/language-model/embedded/Phrasebook.js"
import * as ToolResults from "../../../src/language-model/embedded/ToolResults.js"

const en = phrasesOf("en")
const say = (content: unknown) =>
  ToolResults.sentenceFor(typeof content === "string" ? content : JSON.stringify(content), "check order", en)

describe("ToolResults", () => {
  it("says a result's message when it has one", () => {
    expect(say({ ok: true, message: "Your order ships tomorrow.", response: { a: 1 } })).toBe(
      "Your order ships tomorrow."
    )
    expect(
      say({ ok: false, message: "The shop is closed.", error: { type: "http_status", detail: "500" } })
    ).toBe("The shop is closed.")
  })

  it("reads a response's scalar fields, a scalar, or a list", () => {
    expect(say({ ok: true, response: { order_status: "shipped", eta: "2026-03-01", items: [1, 2] } })).toBe(
      "Here is what I found: order status: shipped, eta: 2026-03-01."
    )
    expect(say({ ok: true, response: { order: { status: "shipped" } } })).toBe(
      "Here is what I found: status: shipped."
    )
    expect(say({ ok: true, response: 42 })).toBe("Here is what I found: 42.")
    expect(say({ ok: true, response: [{ id: "A" }, { id: "B" }] })).toBe(
      "I found 2 results; the first: id: A."
    )
    expect(say({ ok: true, response: [] })).toBe("I found nothing.")
    expect(say({ ok: true, response: null })).toBe("That's done.")
    expect(say({ city: "Kraków", temperature: 21 })).toBe(
      "Here is what I found: city: Kraków, temperature: 21."
    )
    expect(say("plain text answer")).toBe("Here is what I found: plain text answer.")
    expect(say("")).toBe("That's done.")
  })

  it("says that a failed call could not be done, with its error's words", () => {
    expect(say({ ok: false, error: { type: "timeout", detail: "no answer within 5000 ms" } })).toBe(
      "I'm sorry, I could not check order: no answer within 5000 ms."
    )
    expect(say({ ok: false, error: "transfers are not available in chat" })).toBe(
      "I'm sorry, I could not check order: transfers are not available in chat."
    )
    expect(say({ ok: false })).toBe("I'm sorry, I could not check order.")
  })

  it("keeps what it reads back bounded", () => {
    const sentence = say({ ok: true, response: { note: "x".repeat(5_000) } })
    expect(sentence.length).toBeLessThan(ToolResults.maxResultChars + 40)
    expect(say({ ok: true, message: "y".repeat(5_000) }).length).toBe(ToolResults.maxResultChars)
  })

  it.prop(
    "any content gives one non-empty sentence",
    [FastCheck.oneof(FastCheck.string(), FastCheck.json())],
    ([content]) => {
      expect(ToolResults.sentenceFor(content, "do that", en).trim()).not.toBe("")
    }
  )
})
