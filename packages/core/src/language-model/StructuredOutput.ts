import { Either, JSONSchema, ParseResult, Schema } from "effect"
import type { JsonSchema } from "./LanguageModel.js"

/**
 * Structured output as every adapter sends and reads it: the JSON Schema of the request's schema, and the
 * model's text decoded back with it.
 */

/**
 * The JSON Schema of `schema` as a model is given it: Effect's derivation without the `$schema` marker,
 * with named parts written in place rather than referenced (providers' strict modes want the object itself
 * at the root); only a recursive schema keeps `$defs`.
 */
export const jsonSchemaOf = <A, I>(schema: Schema.Schema<A, I>): JsonSchema => {
  const definitions: Record<string, JSONSchema.JsonSchema7> = {}
  const root = JSONSchema.fromAST(schema.ast, { definitions, topLevelReferenceStrategy: "skip" })
  return Object.keys(definitions).length === 0 ? { ...root } : { $defs: definitions, ...root }
}

/** A model's text as an object of the schema, or why it is not one (a sentence, for a log or an error). */
export const decodeText = <A, I>(schema: Schema.Schema<A, I>, text: string): Either.Either<A, string> => {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return Either.left("the reply is not JSON")
  }
  return Either.mapLeft(
    Schema.decodeUnknownEither(schema)(parsed, { errors: "all" }),
    (error) =>
      `the reply does not fit the schema: ${ParseResult.TreeFormatter.formatErrorSync(error).slice(0, 500)}`
  )
}
