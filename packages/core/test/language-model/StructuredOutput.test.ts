import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Either, FastCheck, Schema } from "effect"
import * as StructuredOutput from "../../src/language-model/StructuredOutput.js"

const Contact = Schema.Struct({
  name: Schema.String,
  age: Schema.NullOr(Schema.Number),
  tags: Schema.Array(Schema.Struct({ label: Schema.String, main: Schema.Boolean })),
  kind: Schema.Literal("person", "company")
})

/** Every object of a JSON schema: its own and those nested in properties, items and alternatives. */
const objectsIn = (schema: unknown): ReadonlyArray<Record<string, unknown>> => {
  if (typeof schema !== "object" || schema === null) return []
  const node = schema as Record<string, unknown>
  const nested = [
    ...Object.values((node.properties ?? {}) as Record<string, unknown>),
    ...(node.items === undefined ? [] : [node.items]),
    ...((node.anyOf ?? []) as Array<unknown>),
    ...Object.values((node.$defs ?? {}) as Record<string, unknown>)
  ].flatMap(objectsIn)
  return node.type === "object" ? [node, ...nested] : nested
}

describe("StructuredOutput.jsonSchemaOf", () => {
  it("is the schema's JSON Schema without the $schema marker", () => {
    const json = StructuredOutput.jsonSchemaOf(Contact)
    expect(json).not.toHaveProperty("$schema")
    expect(json).toEqual({
      type: "object",
      required: ["name", "age", "tags", "kind"],
      properties: {
        name: { type: "string" },
        age: { anyOf: [{ type: "number" }, { type: "null" }] },
        tags: {
          type: "array",
          items: {
            type: "object",
            required: ["label", "main"],
            properties: { label: { type: "string" }, main: { type: "boolean" } },
            additionalProperties: false
          }
        },
        kind: { type: "string", enum: ["person", "company"] }
      },
      additionalProperties: false
    })
  })

  it("gives every object of a struct all its properties required and no others allowed", () => {
    for (const object of objectsIn(StructuredOutput.jsonSchemaOf(Contact))) {
      expect(object.required).toEqual(Object.keys(object.properties as object))
      expect(object.additionalProperties).toBe(false)
    }
  })

  it("has the object itself at the root, also for a schema with an identifier", () => {
    const json = StructuredOutput.jsonSchemaOf(Contact.annotations({ identifier: "Contact" }))
    expect(json).not.toHaveProperty("$ref")
    expect(json).toMatchObject({ type: "object", required: ["name", "age", "tags", "kind"] })
    const ids = StructuredOutput.jsonSchemaOf(Schema.Struct({ id: Schema.NullOr(Schema.Int) }))
    expect(JSON.stringify(ids)).not.toContain("$ref")
    expect(ids).toMatchObject({ properties: { id: { anyOf: [{ type: "integer" }, { type: "null" }] } } })
  })
  it("keeps definitions only for a recursive schema, every reference resolving to one", () => {
    interface Topic {
      readonly title: string
      readonly subtopics: ReadonlyArray<Topic>
    }
    const Topic = Schema.Struct({
      title: Schema.String,
      subtopics: Schema.Array(Schema.suspend((): Schema.Schema<Topic> => Topic))
    }).annotations({ identifier: "Topic" })
    const json = StructuredOutput.jsonSchemaOf(Schema.Struct({ topic: Topic }))
    expect(json).toMatchObject({ type: "object", required: ["topic"] })
    const refs = [...JSON.stringify(json).matchAll(/"\$ref":"#\/\$defs\/(\w+)"/g)].map((m) => m[1])
    expect(refs.length).toBeGreaterThan(0)
    for (const ref of refs) expect(json.$defs).toHaveProperty(ref!)
  })
})

describe("StructuredOutput.decodeText", () => {
  it("decodes JSON text of the schema, dropping properties it does not know", () => {
    const text = JSON.stringify({
      name: "Ala",
      age: null,
      tags: [{ label: "vip", main: true }],
      kind: "person",
      x: 1
    })
    expect(StructuredOutput.decodeText(Contact, text)).toEqual(
      Either.right({ name: "Ala", age: null, tags: [{ label: "vip", main: true }], kind: "person" })
    )
  })

  it("says a reply that is not JSON is not", () => {
    expect(StructuredOutput.decodeText(Contact, "Sure! Here it is: {")).toEqual(
      Either.left("the reply is not JSON")
    )
    expect(StructuredOutput.decodeText(Contact, "")).toEqual(Either.left("the reply is not JSON"))
  })

  it("says where JSON of another shape does not fit, every fault at once, in a bounded sentence", () => {
    const result = StructuredOutput.decodeText(Contact, JSON.stringify({ name: 1, tags: [], kind: "robot" }))
    expect(Either.isLeft(result)).toBe(true)
    const reason = Either.getLeft(result).pipe((o) => (o._tag === "Some" ? o.value : ""))
    expect(reason).toMatch(/^the reply does not fit the schema: /)
    expect(reason).toContain('["name"]')
    expect(reason).toContain('["age"]')
    expect(reason).toContain('["kind"]')
    const long = StructuredOutput.decodeText(
      Schema.Array(Schema.Number),
      JSON.stringify(Array(500).fill("x"))
    )
    expect(Either.getLeft(long).pipe((o) => (o._tag === "Some" ? o.value.length : 0))).toBeLessThanOrEqual(
      "the reply does not fit the schema: ".length + 500
    )
  })

  it.prop(
    "an object of the schema sent as JSON decodes to itself",
    [
      // JSON has no infinities, NaN or -0
      Arbitrary.make(Contact).filter(
        ({ age }) => age === null || (Number.isFinite(age) && !Object.is(age, -0))
      )
    ],
    ([contact]) => {
      expect(StructuredOutput.decodeText(Contact, JSON.stringify(contact))).toEqual(Either.right(contact))
    }
  )

  it.prop(
    "any text decodes or says why not, never throwing",
    [FastCheck.string({ maxLength: 200 })],
    ([text]) => {
      const result = StructuredOutput.decodeText(Contact, text)
      if (Either.isLeft(result))
        expect(result.left).toMatch(/^the reply (is not JSON|does not fit the schema: )/)
    }
  )
})
