import { PgClient } from "@effect/sql-pg"
import { Config, Effect, Layer, type Redacted } from "effect"
import pg from "pg"

/** PostgreSQL's type number for `int8` (`bigint`). */
const int8 = 20

/**
 * Ids, counts and money are `bigint` columns, which `pg` hands back as strings. They are read as numbers
 * instead, and a value past 2^53 (which no id or balance here reaches) is refused rather than rounded.
 */
const parseInt8 = (text: string): number => {
  const value = Number(text)
  if (!Number.isSafeInteger(value)) throw new RangeError(`int8 value ${text} is not a safe integer`)
  return value
}

/** The type parsers every connection uses. */
export const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === int8 && format !== "binary"
      ? parseInt8
      : pg.types.getTypeParser(oid, format ?? "text")) as pg.CustomTypesConfig["getTypeParser"]
}

export interface PgConnectionOptions {
  /** `postgres://user:password@host:port/database`. */
  readonly url: Redacted.Redacted
  /** Connections kept by this process (default 10). */
  readonly maxConnections?: number
  readonly applicationName?: string
}

/** A connection pool to a PostgreSQL server, with the engine's type parsers. */
export const layer = (options: PgConnectionOptions) =>
  PgClient.layer({
    url: options.url,
    maxConnections: options.maxConnections ?? 10,
    applicationName: options.applicationName ?? "voice-agent-platform",
    types
  })

/** The same, configured by `DATABASE_URL` (and `DATABASE_MAX_CONNECTIONS`, default 10). */
export const layerConfig = Layer.unwrapEffect(
  Effect.map(
    Config.all({
      url: Config.redacted("DATABASE_URL"),
      maxConnections: Config.integer("DATABASE_MAX_CONNECTIONS").pipe(Config.withDefault(10))
    }),
    layer
  )
)
