/** ScriptAnalysis.analyze properties: any script gives a valid, deterministic preview. */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as AgentFromScript from "../../src/agents/AgentFromScript.js"
import { analyze } from "../../src/agents/ScriptAnalysis.js"
import { isRequest, encode, decode } from "./ScriptAnalysisFixtures.js"

// Lines as people write scripts: labels, headers, list markers, pairs, quotes and prose, in any order.
const scriptLine = FastCheck.tuple(
  FastCheck.constantFrom(
    "",
    "  ",
    "\t",
    "- ",
    "* ",
    "• ",
    "1. ",
    "2) ",
    "Step 3: ",
    "Goal: ",
    "Cel: ",
    "Greeting: ",
    "Powitanie:",
    "Name: ",
    "Direction: ",
    "Language: ",
    "Address: ",
    "Steps:",
    "Kroki:",
    "Objections:",
    "Zastrzeżenia: ",
    "Must say: ",
    "Collect: ",
    "Dane:",
    "Avoid: ",
    "FAQ:",
    "Facts:",
    "Notes:",
    "Q: ",
    "A: ",
    "Objection: ",
    "Response: ",
    "## ",
    "**",
    '"',
    "„",
    "__proto__: "
  ),
  FastCheck.oneof(
    FastCheck.lorem({ maxCount: 8 }),
    FastCheck.constantFrom("", ":", "?", "->", " -> ", '"', "”", "(date)", "(", "---", "inbound", "pl_PL"),
    FastCheck.string({ maxLength: 12 })
  ),
  FastCheck.constantFrom("", ":", "?", '"', " -> x", ": y", "  ")
).map(([prefix, body, suffix]) => `${prefix}${body}${suffix}`)

const script = FastCheck.tuple(
  FastCheck.array(scriptLine, { maxLength: 30 }),
  FastCheck.constantFrom("\n", "\r\n", "\r")
).map(([lines, newline]) => lines.join(newline))

const anyLanguage = FastCheck.option(
  FastCheck.oneof(
    FastCheck.constantFrom("en", "pl", "PL", "pl_PL", "de-AT", "Polish", "", "x"),
    FastCheck.string({ maxLength: 8 })
  ),
  { nil: undefined }
)

const checkInvariants = (source: string, language: string | undefined) => {
  const result = analyze(source, language)
  expect(isRequest(result)).toBe(true)
  expect(result.agent.greeting).not.toBe("")
  expect(result.agent.greeting).toBe(result.agent.greeting.trim())
  expect(decode(encode(result))).toEqual(result)
  expect(() => AgentFromScript.compose(result)).not.toThrow()
  expect(analyze(source, language)).toEqual(result)
}

describe("ScriptAnalysis.analyze properties", () => {
  it.prop(
    "any string gives a valid, round-tripping, composable preview",
    [FastCheck.string({ unit: "binary", maxLength: 300 }), anyLanguage],
    ([source, language]) => checkInvariants(source, language)
  )

  it.prop("any printable string too", [FastCheck.string({ maxLength: 300 })], ([source]) =>
    checkInvariants(source, undefined)
  )

  it.prop(
    "any script-like text gives a valid, round-tripping, composable preview",
    [script, anyLanguage],
    ([source, language]) => checkInvariants(source, language),
    { fastCheck: { numRuns: 500 } }
  )

  it.prop(
    "lorem prose: the first line is the greeting, the others are knowledge",
    [FastCheck.array(FastCheck.lorem({ mode: "sentences", maxCount: 3 }), { maxLength: 12 })],
    ([lines]) => {
      const result = analyze(lines.join("\n"))
      const kept = lines.map((line) => line.trim()).filter((line) => line !== "")
      expect(result.agent.greeting).toBe(kept[0] ?? "Hello!")
      expect(result.knowledge).toBe(kept.slice(1).join("\n"))
    }
  )

  it.prop(
    "numbered lines become the steps, in order",
    [FastCheck.array(FastCheck.lorem({ maxCount: 4 }), { minLength: 1, maxLength: 10 })],
    ([items]) => {
      const result = analyze(items.map((item, i) => `${i + 1}. ${item}`).join("\n"))
      expect(result.agent.conversation_structure).toEqual(
        items.map((item) => item.trim()).filter((item) => item !== "")
      )
    }
  )

  it.prop(
    "a valid language argument is kept as given",
    [FastCheck.constantFrom("en", "pl", "de", "pl-PL", "en-GB", "fra"), script],
    ([language, source]) => {
      expect(analyze(source, language).language).toBe(language)
    }
  )
})
