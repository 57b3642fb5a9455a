import { Schema } from "effect"

/** A free-form JSON object. */
export const JsonObject = Schema.Record({ key: Schema.String, value: Schema.Unknown })

/** Request bodies are exactly what the document declares: unknown fields are refused, every error is listed. */
export const strict = <S extends Schema.Schema.Any>(schema: S): S =>
  schema.annotations({ parseOptions: { onExcessProperty: "error", errors: "all" } }) as S
