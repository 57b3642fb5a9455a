import { ParseResult, Schema } from "effect"

/** How deep free-form JSON may nest, and how large it may be once serialised. */
export const jsonLimits = { depth: 32, bytes: 64 * 1024 } as const

/**
 * Whether a JSON-like value nests at most `limit` levels. Iterative, so that no input can exhaust the
 * stack however deep it is.
 */
export const withinDepth = (value: unknown, limit: number): boolean => {
  const stack: Array<readonly [unknown, number]> = [[value, 0]]
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!
    if (typeof current !== "object" || current === null) continue
    if (depth >= limit) return false
    for (const child of Array.isArray(current) ? current : Object.values(current))
      stack.push([child, depth + 1])
  }
  return true
}

const PlainObject = Schema.Record({ key: Schema.String, value: Schema.Unknown })

/** Why a free-form object is refused, or undefined when it is within the bounds. */
const boundsProblem = (record: Record<string, unknown>): string | undefined => {
  if (!withinDepth(record, jsonLimits.depth)) return `must not nest deeper than ${jsonLimits.depth} levels`
  const size = new TextEncoder().encode(JSON.stringify(record)).length
  return size <= jsonLimits.bytes
    ? undefined
    : `must be at most ${jsonLimits.bytes} bytes of JSON, got ${size}`
}

/**
 * A free-form JSON object (`initial_context`, `config`, `custom_metadata`, ...), bounded: at most 32 levels
 * deep and 64 KiB serialised. Unbounded input would be stored and then fail every read that renders it.
 * The bounds are checked when a request is decoded only: answers render what was stored, with no cost.
 */
export const JsonObject = Schema.transformOrFail(PlainObject, PlainObject, {
  strict: true,
  decode: (record, _, ast) => {
    const problem = boundsProblem(record)
    return problem === undefined
      ? ParseResult.succeed(record)
      : ParseResult.fail(new ParseResult.Type(ast, record, problem))
  },
  encode: ParseResult.succeed
}).annotations({
  description: `a JSON object, at most ${jsonLimits.depth} levels deep and ${jsonLimits.bytes} bytes`
})

/** Request bodies are exactly what the document declares: unknown fields are refused, every error is listed. */
export const strict = <S extends Schema.Schema.Any>(schema: S): S =>
  schema.annotations({ parseOptions: { onExcessProperty: "error", errors: "all" } }) as S
