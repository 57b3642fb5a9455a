import type { SqlError } from "@effect/sql"
import { Effect, Option, Schema } from "effect"

/**
 * Reading rows back as the core's records. Every row is decoded with the record's schema: a row that does
 * not decode (a schema and a migration out of step) is a defect, never a silently wrong value. A database
 * error is a defect too: the ports promise their callers an answer, and a lost database is not one they
 * can act on.
 */

// One compiled decoder per schema: building a decoder is far dearer than running it, and stores call these
// helpers inline, per query.
const decoders = new WeakMap<Schema.Schema.Any, (row: unknown) => unknown>()
const decoderOf = <A, I>(schema: Schema.Schema<A, I>): ((row: unknown) => A) => {
  let decode = decoders.get(schema as Schema.Schema.Any)
  if (decode === undefined) {
    decode = Schema.decodeUnknownSync(schema)
    decoders.set(schema as Schema.Schema.Any, decode)
  }
  return decode as (row: unknown) => A
}

/** Every row, decoded. */
export const all =
  <A, I>(schema: Schema.Schema<A, I>) =>
  (query: Effect.Effect<ReadonlyArray<unknown>, SqlError.SqlError>): Effect.Effect<ReadonlyArray<A>> => {
    const decode = decoderOf(schema)
    return query.pipe(
      Effect.orDie,
      Effect.map((rows) => rows.map(decode))
    )
  }

/** The first row, decoded, if there is one. */
export const first =
  <A, I>(schema: Schema.Schema<A, I>) =>
  (query: Effect.Effect<ReadonlyArray<unknown>, SqlError.SqlError>): Effect.Effect<Option.Option<A>> => {
    const decode = decoderOf(schema)
    return query.pipe(
      Effect.orDie,
      Effect.map((rows) => (rows.length === 0 ? Option.none() : Option.some(decode(rows[0]))))
    )
  }

/** The one row a statement always yields (an INSERT ... RETURNING), decoded. */
export const single =
  <A, I>(schema: Schema.Schema<A, I>) =>
  (query: Effect.Effect<ReadonlyArray<unknown>, SqlError.SqlError>): Effect.Effect<A> =>
    first(schema)(query).pipe(
      Effect.flatMap(
        Option.match({
          onNone: () => Effect.dieMessage("the statement returned no row"),
          onSome: Effect.succeed
        })
      )
    )

/** A statement whose rows do not matter. */
export const execute = (query: Effect.Effect<unknown, SqlError.SqlError>): Effect.Effect<void> =>
  query.pipe(Effect.orDie, Effect.asVoid)
