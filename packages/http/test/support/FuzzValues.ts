/** Values built from the OpenAPI document's schemas, and the ways clients get them wrong (seeded). */

/** A small seeded generator (mulberry32): the same seed gives the same requests. */
export const random = (start: number) => {
  let state = start >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1))
  const pick = <A>(items: ReadonlyArray<A>): A => items[int(0, items.length - 1)]!
  const chance = (p: number) => next() < p
  return { next, int, pick, chance }
}

export type Random = ReturnType<typeof random>

export type Schema = {
  $ref?: string
  type?: string | Array<string>
  enum?: Array<unknown>
  const?: unknown
  format?: string
  properties?: Record<string, Schema>
  required?: Array<string>
  additionalProperties?: boolean | Schema
  items?: Schema
  anyOf?: Array<Schema>
  oneOf?: Array<Schema>
  allOf?: Array<Schema>
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  minItems?: number
  maxItems?: number
  nullable?: boolean
}

export type Parameter = { name: string; in: "path" | "query" | "header"; schema?: Schema; required?: boolean }

export type Operation = {
  method: string
  path: string
  parameters: ReadonlyArray<Parameter>
  body: { mediaType: string; schema: Schema } | undefined
}

export type Document = {
  paths: Record<
    string,
    Record<
      string,
      { parameters?: Array<Parameter>; requestBody?: { content: Record<string, { schema: Schema }> } }
    >
  >
  components: { schemas: Record<string, Schema> }
}

// Routes whose answers are not JSON by design.
export const notJson = new Set(["/api/v1/public-docs", "/api/v1/public-openapi.json"])

export const operationsOf = (document: Document): Array<Operation> =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
      .map(([method, operation]) => {
        const [mediaType, content] = Object.entries(operation.requestBody?.content ?? {})[0] ?? []
        return {
          method: method.toUpperCase(),
          path,
          parameters: operation.parameters ?? [],
          body: mediaType === undefined ? undefined : { mediaType, schema: content!.schema }
        }
      })
  )

/** A value the schema describes (or nearly: the generator is not a validator), `depth` bounding recursion. */
export const valueOf = (document: Document, schema: Schema | undefined, rng: Random, depth = 0): unknown => {
  if (schema === undefined || depth > 6) return null
  if (schema.$ref !== undefined)
    return valueOf(document, document.components.schemas[schema.$ref.split("/").pop()!], rng, depth + 1)
  if (schema.const !== undefined) return schema.const
  if (schema.enum !== undefined) return rng.pick(schema.enum)
  const alternatives = schema.anyOf ?? schema.oneOf
  if (alternatives !== undefined) return valueOf(document, rng.pick(alternatives), rng, depth + 1)
  if (schema.allOf !== undefined)
    return Object.assign({}, ...schema.allOf.map((part) => valueOf(document, part, rng, depth + 1)))
  const type = Array.isArray(schema.type) ? rng.pick(schema.type) : schema.type
  switch (type) {
    case "string":
      if (schema.format === "date-time")
        return new Date(Date.UTC(2026, rng.int(0, 11), rng.int(1, 28))).toISOString()
      if (schema.format === "uuid") return "00000000-0000-4000-8000-00000000000" + rng.int(0, 9)
      return rng.pick([
        "x",
        "Clinic",
        "+48500100200",
        "agent_AAAAAAAAAAAAAAAAAAAA",
        "hello world",
        "a".repeat(schema.minLength ?? 1)
      ])
    case "integer":
      return rng.int(schema.minimum ?? 0, Math.min(schema.maximum ?? 1000, 1_000_000))
    case "number":
      return rng.int(schema.minimum ?? 0, Math.min(schema.maximum ?? 1000, 1_000_000)) + rng.pick([0, 0.5])
    case "boolean":
      return rng.chance(0.5)
    case "array":
      return Array.from({ length: rng.int(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3)) }, () =>
        valueOf(document, schema.items, rng, depth + 1)
      )
    case "null":
      return null
    default: {
      const value: Record<string, unknown> = {}
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        if (schema.required?.includes(key) || rng.chance(0.5))
          value[key] = valueOf(document, property, rng, depth + 1)
      }
      return value
    }
  }
}

/** Values no schema expects, in every part of a request. */
export const oddValues: ReadonlyArray<unknown> = [
  null,
  "",
  -1,
  0,
  1e308,
  99999999999999999999,
  "x".repeat(5000),
  "\u0000",
  "\ud800",
  "😀",
  [],
  {},
  [[[[]]]],
  true,
  "2026-13-45T25:61:00Z"
]

/** A JSON value changed the ways clients get it wrong: a field dropped, added, of another type. */
export const mutate = (value: unknown, rng: Random, depth = 0): unknown => {
  if (depth > 4 || rng.chance(0.3)) return rng.pick(oddValues)
  if (Array.isArray(value))
    return value.length === 0 ? [rng.pick(oddValues)] : value.map((item) => mutate(item, rng, depth + 1))
  if (typeof value === "object" && value !== null) {
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) }
    const keys = Object.keys(copy)
    if (keys.length > 0 && rng.chance(0.3)) delete copy[rng.pick(keys)]
    if (rng.chance(0.3)) copy[rng.pick(["extra", "__proto__", "constructor", ""])] = rng.pick(oddValues)
    if (keys.length > 0) copy[rng.pick(keys)] = mutate(copy[rng.pick(keys)], rng, depth + 1)
    return copy
  }
  return rng.pick(oddValues)
}
