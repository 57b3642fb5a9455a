import type { JsonSchema } from "../LanguageModel.js"

/**
 * A value for a JSON Schema, as structured output is asked for: walked from the root, every object's
 * properties filled (all of them, as strict modes require), `$ref`s followed within the document. A hint
 * may give any value by its path; scalars may come from the conversation (`scalar`); what neither gives
 * is the type's empty value: a nullable one null, a string empty, a number 0 (or its minimum), a boolean
 * false, an array empty (or its `minItems` of filled items), a list of literals its best option
 * (`choose`), else its first.
 */

type Schema = Readonly<Record<string, unknown>>

/** What a walk asks of the caller. */
export interface Filler {
  /** A value for the path, when the caller has one (`{ value }`); checked by the decoding, not here. */
  readonly hint: (path: ReadonlyArray<string>) => { readonly value: unknown } | undefined
  /** A scalar property's value from the conversation, when found. */
  readonly scalar: (
    name: string,
    type: "string" | "number" | "boolean" | "date",
    description: string | null
  ) => string | number | boolean | undefined
  /** The best of a list of literals, each with its description. */
  readonly choose: (options: ReadonlyArray<{ readonly value: unknown; readonly text: string }>) => unknown
}

/** Deeper than this the schema is taken as recursive and the value stops (null). */
export const maxDepth = 32

const isRecord = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** The schema a `$ref` (a JSON pointer into the document) points to; an empty schema when it points nowhere. */
const resolve = (schema: Schema, root: Schema): Schema => {
  let current = schema
  for (let hops = 0; hops < maxDepth && typeof current["$ref"] === "string"; hops++) {
    const ref = current["$ref"]
    if (!ref.startsWith("#")) return {}
    let target: unknown = root
    for (const segment of ref
      .slice(1)
      .split("/")
      .filter((part) => part !== "")) {
      const key = decodeURIComponent(segment).replace(/~1/g, "/").replace(/~0/g, "~")
      target = isRecord(target) && Object.hasOwn(target, key) ? target[key] : undefined
    }
    const { $ref: _, ...siblings } = current
    current = isRecord(target) ? { ...target, ...siblings } : {}
  }
  return current
}

/** The names an object schema requires. */
export const requiredOf = (schema: Schema): ReadonlyArray<string> =>
  Array.isArray(schema["required"])
    ? schema["required"].filter((name): name is string => typeof name === "string")
    : []

const typesOf = (schema: Schema): ReadonlyArray<string> => {
  const type = schema["type"]
  return typeof type === "string"
    ? [type]
    : Array.isArray(type)
      ? type.filter((t): t is string => typeof t === "string")
      : []
}

const literalsOf = (schema: Schema): ReadonlyArray<unknown> | undefined =>
  Object.hasOwn(schema, "const")
    ? [schema["const"]]
    : Array.isArray(schema["enum"])
      ? schema["enum"]
      : undefined

const descriptionOf = (schema: Schema): string =>
  typeof schema["description"] === "string" ? schema["description"] : ""

const isDate = (schema: Schema) => schema["format"] === "date" || /YYYY-MM-DD/.test(descriptionOf(schema))

/** A value for `root`. */
export const fill = (root: JsonSchema, filler: Filler): unknown => {
  const scalarOf = (schema: Schema, path: ReadonlyArray<string>, type: string) => {
    const name = path.at(-1)
    if (name === undefined) return undefined
    const description = descriptionOf(schema) === "" ? null : descriptionOf(schema)
    switch (type) {
      case "string": {
        const value = filler.scalar(name, isDate(schema) ? "date" : "string", description)
        return typeof value === "string" ? value : undefined
      }
      case "number":
      case "integer": {
        const value = filler.scalar(name, "number", description)
        return typeof value === "number" && (type === "number" || Number.isInteger(value)) ? value : undefined
      }
      case "boolean": {
        const value = filler.scalar(name, "boolean", description)
        return typeof value === "boolean" ? value : undefined
      }
      default:
        return undefined
    }
  }

  const walk = (raw: unknown, path: ReadonlyArray<string>, depth: number): unknown => {
    const hinted = filler.hint(path)
    if (hinted !== undefined) return hinted.value
    if (depth > maxDepth || !isRecord(raw)) return null
    const schema = resolve(raw, root)
    const literals = literalsOf(schema)
    if (literals !== undefined && literals.length > 0)
      return filler.choose(
        literals.map((value) => ({ value, text: `${String(value)} ${descriptionOf(schema)}` }))
      )
    const options = schema["anyOf"] ?? schema["oneOf"]
    if (Array.isArray(options) && options.length > 0) {
      const resolved = options.filter(isRecord).map((option) => resolve(option, root))
      const nonNull = resolved.filter(
        (option) => !typesOf(option).every((t) => t === "null") || typesOf(option).length === 0
      )
      const nullable = nonNull.length < resolved.length
      const choices = nonNull.map((option) => ({ option, literals: literalsOf(option) }))
      if (choices.length > 0 && choices.every(({ literals: l }) => l !== undefined && l.length > 0)) {
        if (nullable) return null
        return filler.choose(
          choices.flatMap(({ option, literals: l }) =>
            l!.map((value) => ({
              value,
              text: `${String(value)} ${descriptionOf(option) || descriptionOf(schema)}`
            }))
          )
        )
      }
      const first = nonNull[0]
      if (first === undefined) return null
      const merged = { ...first, description: descriptionOf(first) || descriptionOf(schema) }
      if (nullable) {
        const type = typesOf(first)[0]
        return (type === undefined ? undefined : scalarOf(merged, path, type)) ?? null
      }
      return walk(merged, path, depth + 1)
    }
    const types = typesOf(schema)
    const type = types.find((t) => t !== "null")
    if (types.includes("null")) return (type === undefined ? undefined : scalarOf(schema, path, type)) ?? null
    const minimum = typeof schema["minimum"] === "number" ? schema["minimum"] : 0
    switch (type ?? (isRecord(schema["properties"]) ? "object" : undefined)) {
      case "object": {
        const properties = isRecord(schema["properties"]) ? schema["properties"] : {}
        // A required name without a property of its own is still answered (a schema derived by assigning
        // `properties[name]` loses a property named `__proto__`: its value becomes the object's prototype).
        const names = [...new Set([...Object.keys(properties), ...requiredOf(schema)])]
        // entries, so that a property named `__proto__` is an own property of the value
        return Object.fromEntries(
          names.map((key) => [
            key,
            walk(Object.hasOwn(properties, key) ? properties[key] : undefined, [...path, key], depth + 1)
          ])
        )
      }
      case "array": {
        const count = typeof schema["minItems"] === "number" ? Math.min(schema["minItems"], 100) : 0
        return Array.from({ length: count }, (_, i) => walk(schema["items"], [...path, String(i)], depth + 1))
      }
      case "string":
        return scalarOf(schema, path, "string") ?? ""
      case "number":
        return scalarOf(schema, path, "number") ?? minimum
      case "integer":
        return scalarOf(schema, path, "integer") ?? Math.ceil(minimum)
      case "boolean":
        return scalarOf(schema, path, "boolean") ?? false
      default:
        return null
    }
  }
  return walk(root, [], 0)
}
