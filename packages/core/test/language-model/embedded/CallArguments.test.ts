import { describe, expect, it } from "@effect/vitest"
import * as CallArguments from "../../../src/language-model/embedded/CallArguments.js"
import type { Turn } from "../../../src/language-model/embedded/FieldExtraction.js"
import type { FunctionTool } from "../../../src/language-model/LanguageModel.js"

const fn = (properties: Record<string, unknown>, required: ReadonlyArray<string>): FunctionTool => ({
  name: "book_visit",
  description: "Books a visit",
  parameters: { type: "object", properties, required }
})
const user = (text: string): Turn => ({ role: "user", text })
const agent = (text: string): Turn => ({ role: "assistant", text })

describe("CallArguments", () => {
  it("reads parameters from the JSON schema, nullable and typed", () => {
    const parameters = CallArguments.parametersOf(
      fn(
        {
          email: { type: "string", description: "Contact e-mail" },
          guests: { type: "integer" },
          price: { type: ["number", "null"] },
          vip: { anyOf: [{ type: "boolean" }, { type: "null" }] },
          day: { type: "string", format: "date" },
          size: { type: "string", enum: ["small", "large"] }
        },
        ["email", "guests"]
      ).parameters
    )
    expect(parameters.map(({ name, type, required, integer }) => [name, type, required, integer])).toEqual([
      ["email", "string", true, false],
      ["guests", "number", true, true],
      ["price", "number", false, false],
      ["vip", "boolean", false, false],
      ["day", "date", false, false],
      ["size", "string", false, false]
    ])
    expect(parameters[5]!.options).toEqual(["small", "large"])
    expect(CallArguments.parametersOf({})).toEqual([])
  })

  it("builds arguments from the conversation and the asking turn", () => {
    const turns = [
      user("Hi, my email is ann@example.com"),
      agent("How can I help?"),
      user("Please book a visit for 3 people, large room")
    ]
    const built = CallArguments.build(
      fn(
        {
          email: { type: "string" },
          guests: { type: "integer" },
          size: { type: "string", enum: ["small", "large"] },
          note: { type: "string" }
        },
        ["email", "guests"]
      ),
      { turns, asking: turns[2]!.text, triggerPhrases: ["book a visit"] }
    )
    expect(built).toEqual({
      _tag: "Ready",
      arguments: { email: "ann@example.com", guests: 3, size: "large", note: "3 people, large room" }
    })
  })

  it("takes the words after the trigger phrase for the first text parameter", () => {
    const turns = [user("Can you check my order A-17?")]
    const built = CallArguments.build(
      {
        name: "check_order",
        description: "",
        parameters: { type: "object", properties: { order_id: { type: "string" } }, required: ["order_id"] }
      },
      { turns, asking: turns[0]!.text, triggerPhrases: ["check my order"] }
    )
    expect(built).toEqual({ _tag: "Ready", arguments: { order_id: "A-17" } })
  })

  it("names the first required parameter nothing gave; leaves optional ones out", () => {
    const turns = [user("book a visit")]
    expect(
      CallArguments.build(fn({ note: { type: "string" }, email: { type: "string" } }, ["email"]), {
        turns,
        asking: turns[0]!.text,
        triggerPhrases: ["book a visit"]
      })
    ).toMatchObject({ _tag: "Missing", parameter: { name: "email" } })
    expect(
      CallArguments.build(fn({ note: { type: "string" } }, []), {
        turns,
        asking: turns[0]!.text,
        triggerPhrases: ["book a visit"]
      })
    ).toEqual({ _tag: "Ready", arguments: {} })
  })

  it("does not pass a value of the wrong type or outside the options", () => {
    const turns = [user("book a visit for 2.5 people, medium room")]
    expect(
      CallArguments.build(
        fn({ guests: { type: "integer" }, size: { type: "string", enum: ["small", "large"] } }, []),
        {
          turns,
          asking: turns[0]!.text,
          triggerPhrases: ["book a visit"]
        }
      )
    ).toEqual({ _tag: "Ready", arguments: {} })
  })

  it("fills a required parameter from the fallback when given one", () => {
    expect(
      CallArguments.build(fn({ reason: { type: "string" } }, ["reason"]), {
        turns: [],
        asking: undefined,
        triggerPhrases: [],
        fallback: () => "done"
      })
    ).toEqual({ _tag: "Ready", arguments: { reason: "done" } })
  })
})
