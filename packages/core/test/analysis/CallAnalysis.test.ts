import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck, Schema } from "effect"
import type { GatheredField } from "../../src/agents/Agent.js"
import * as CallAnalysis from "../../src/analysis/CallAnalysis.js"
import * as StructuredOutput from "../../src/language-model/StructuredOutput.js"

const highSurrogate = /[\uD800-\uDBFF]$/

interface ObjectSchema {
  readonly type: string
  readonly properties: Record<string, Record<string, unknown>>
  readonly required: ReadonlyArray<string>
  readonly additionalProperties: boolean
}

/** The analysis schema as a request carries it (its field schemas are not typed one by one). */
const schemaOf = (fields: ReadonlyArray<GatheredField>, codes: Record<string, unknown>) =>
  CallAnalysis.schemaFor(fields, codes) as unknown as Schema.Schema<CallAnalysis.Analysis, unknown>

const jsonOf = (fields: ReadonlyArray<GatheredField>, codes: Record<string, unknown>) =>
  StructuredOutput.jsonSchemaOf(schemaOf(fields, codes)) as unknown as ObjectSchema

/** The codes a disposition's JSON Schema allows, whether written as one enum or as alternatives. */
const codesOf = (disposition: Record<string, unknown>): ReadonlyArray<unknown> =>
  Array.isArray(disposition.enum)
    ? disposition.enum
    : (disposition.anyOf as Array<{ enum: Array<unknown> }>).flatMap((alternative) => alternative.enum)

const jsonType = { string: "string", number: "number", boolean: "boolean", date: "string" } as const

const anyFields = FastCheck.uniqueArray(
  FastCheck.record({
    name: FastCheck.stringMatching(/^[a-z][a-z0-9_]{0,15}$/),
    description: FastCheck.option(FastCheck.string({ maxLength: 20 })),
    type: FastCheck.constantFrom("string" as const, "number" as const, "boolean" as const, "date" as const)
  }),
  { selector: (field) => field.name, maxLength: 6 }
)
const anyCodes = FastCheck.dictionary(
  FastCheck.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,12}$/),
  FastCheck.oneof(
    FastCheck.string({ maxLength: 20 }),
    FastCheck.constant(null),
    FastCheck.jsonValue({ maxDepth: 1 })
  ),
  { maxKeys: 5 }
)

describe("CallAnalysis.schemaFor", () => {
  const fields: ReadonlyArray<GatheredField> = [
    { name: "email", description: null, type: "string" },
    { name: "visit_date", description: "The day of the visit", type: "date" }
  ]

  it("asks for each data field, nullable, the disposition among the agent's codes, and a summary", () => {
    const json = jsonOf(fields, { sold: "The caller bought", callback: null })
    expect(json.required).toEqual(["gathered_data", "disposition", "summary"])
    expect(json.additionalProperties).toBe(false)
    expect(json.properties.gathered_data).toEqual({
      type: "object",
      required: ["email", "visit_date"],
      properties: {
        email: {
          anyOf: [{ type: "string" }, { type: "null" }],
          description: "email (text; null when the conversation did not say)"
        },
        visit_date: {
          anyOf: [{ type: "string" }, { type: "null" }],
          description: "The day of the visit (a date, YYYY-MM-DD; null when the conversation did not say)"
        }
      },
      additionalProperties: false,
      description: "The data the agent gathers, as the conversation gave it"
    })
    // sorted by code, the same on every storage
    expect(codesOf(json.properties.disposition!)).toEqual(["callback", "sold"])
    expect(json.properties.summary).toMatchObject({ type: "string" })
  })

  it("asks for no disposition when the agent has no codes", () => {
    const json = jsonOf(fields, {})
    expect(json.required).toEqual(["gathered_data", "summary"])
    expect(json.properties).not.toHaveProperty("disposition")
  })

  it("asks for an empty object of data when the agent gathers none, as strict modes accept it", () => {
    const json = jsonOf([], { only: "The one code" })
    expect(json.properties.gathered_data).toEqual({
      type: "object",
      properties: {},
      required: [],
      additionalProperties: false,
      description: "The data the agent gathers, as the conversation gave it"
    })
    expect(codesOf(json.properties.disposition!)).toEqual(["only"])
    const decoded = StructuredOutput.decodeText(
      schemaOf([], { only: "" }),
      '{"gathered_data":{},"disposition":"only","summary":"Short."}'
    )
    expect(decoded).toEqual(Either.right({ gathered_data: {}, disposition: "only", summary: "Short." }))
  })

  it("decodes an answer of the agent's codes and refuses a code it does not have", () => {
    const schema = schemaOf(fields, { sold: "", lost: "" })
    const answer = {
      gathered_data: { email: "ala@example.com", visit_date: null },
      disposition: "lost",
      summary: "S"
    }
    expect(Schema.decodeUnknownEither(schema)(answer)).toEqual(Either.right(answer))
    expect(Either.isLeft(Schema.decodeUnknownEither(schema)({ ...answer, disposition: "won" }))).toBe(true)
    expect(
      Either.isLeft(Schema.decodeUnknownEither(schema)({ ...answer, gathered_data: { email: 1 } }))
    ).toBe(true)
  })

  it.prop(
    "its JSON Schema has exactly the data fields, each of its type or null, and the codes as the alternatives",
    [anyFields, anyCodes],
    ([fields, codes]) => {
      const json = jsonOf(fields, codes)
      const gathered = json.properties.gathered_data as unknown as ObjectSchema
      expect(gathered.type).toBe("object")
      expect(gathered.additionalProperties).toBe(false)
      expect(Object.keys(gathered.properties)).toEqual(fields.map((f) => f.name))
      expect(gathered.required).toEqual(fields.map((f) => f.name))
      for (const field of fields) {
        expect(gathered.properties[field.name]!.anyOf).toEqual([
          { type: jsonType[field.type] },
          { type: "null" }
        ])
      }
      const names = Object.keys(codes).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      if (names.length === 0) expect(json.properties).not.toHaveProperty("disposition")
      else expect(codesOf(json.properties.disposition!)).toEqual(names)
      expect(json.required).toEqual(Object.keys(json.properties))
    }
  )
})

describe("CallAnalysis.dispositionCodes", () => {
  it("reads each code's meaning as text, sorted by code", () => {
    expect(Object.keys(CallAnalysis.dispositionCodes({ b: "Bought", a: null, d: 3, c: 1 }))).toEqual([
      "a",
      "b",
      "c",
      "d"
    ])
    expect(CallAnalysis.dispositionCodes({ b: "Bought", a: null, c: 3, d: { x: [1] } })).toEqual({
      b: "Bought",
      a: "",
      c: "3",
      d: '{"x":[1]}'
    })
  })
})

describe("CallAnalysis.apply", () => {
  const run = { gathered_context: { email: "ala@example.com", phone: null }, disposition: "callback" }

  it("keeps values already reported, fills the others the analysis found, never writing a null", () => {
    const result = CallAnalysis.apply(run, {
      gathered_data: { email: "other@example.com", phone: "+48500100200", city: null, age: 30 },
      disposition: "sold",
      summary: "Ala bought shoes."
    })
    expect(result).toEqual({
      gathered_context: { email: "ala@example.com", phone: "+48500100200", age: 30 },
      disposition: "sold",
      summary: "Ala bought shoes."
    })
  })

  it("keeps the run's disposition when the analysis gives none", () => {
    expect(CallAnalysis.apply(run, { gathered_data: {}, summary: "" }).disposition).toBe("callback")
    expect(
      CallAnalysis.apply({ ...run, disposition: null }, { gathered_data: {}, summary: "" }).disposition
    ).toBeNull()
  })

  it("trims the summary and cuts it to 500 characters without splitting a character", () => {
    expect(CallAnalysis.apply(run, { gathered_data: {}, summary: "  Short.\n" }).summary).toBe("Short.")
    const long = `${"s".repeat(499)}😀 and more`
    expect(CallAnalysis.apply(run, { gathered_data: {}, summary: long }).summary).toBe("s".repeat(499))
    expect(CallAnalysis.apply(run, { gathered_data: {}, summary: "x".repeat(600) }).summary).toHaveLength(500)
  })

  const anyValue = FastCheck.oneof(FastCheck.constant(null), FastCheck.jsonValue({ maxDepth: 1 }))
  const anyData = FastCheck.dictionary(FastCheck.constantFrom("a", "b", "c", "d", "e"), anyValue)

  it.prop(
    "reported values stay, nulls never overwrite, the disposition is the analysis' or the run's, the summary bounded",
    [
      anyData,
      anyData,
      FastCheck.option(FastCheck.string()),
      FastCheck.option(FastCheck.string()),
      FastCheck.string({ maxLength: 700 })
    ],
    ([current, found, disposition, given, summary]) => {
      const result = CallAnalysis.apply(
        { gathered_context: current, disposition },
        { gathered_data: found, summary, ...(given === null ? {} : { disposition: given }) }
      )
      for (const key of new Set([...Object.keys(current), ...Object.keys(found)])) {
        const reported = current[key]
        const value = result.gathered_context[key]
        if (reported !== null && reported !== undefined) expect(value).toEqual(reported)
        else if (found[key] !== null && found[key] !== undefined) expect(value).toEqual(found[key])
        else expect(Object.hasOwn(result.gathered_context, key)).toBe(Object.hasOwn(current, key))
      }
      expect(result.disposition).toBe(given ?? disposition)
      expect(result.summary.length).toBeLessThanOrEqual(CallAnalysis.summaryChars)
      expect(summary.trim().startsWith(result.summary)).toBe(true)
      expect(result.summary).not.toMatch(highSurrogate)
      if (summary.trim().length <= CallAnalysis.summaryChars) expect(result.summary).toBe(summary.trim())
    }
  )
})
