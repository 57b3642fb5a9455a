import { PgClient } from "@effect/sql-pg"
import { Config, Data, Effect, Layer, Redacted } from "effect"
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

/** The database at the configured URL did not answer when the pool was made. */
export class DatabaseUnreachable extends Data.TaggedError("DatabaseUnreachable")<{
  /** The URL without its password. */
  readonly url: string
  readonly reason: string
}> {
  override get message() {
    return `Cannot connect to the PostgreSQL database at ${this.url}: ${this.reason}`
  }
}

/** The URL as it may be shown: without its password. */
const shown = (url: Redacted.Redacted): string => {
  try {
    const parsed = new URL(Redacted.value(url))
    if (parsed.password !== "") parsed.password = "***"
    return parsed.toString()
  } catch {
    return "(an unreadable URL)"
  }
}

const reasonOf = (cause: unknown): string => {
  const inner = (cause as { cause?: unknown }).cause
  const error = inner instanceof Error ? inner : cause instanceof Error ? cause : undefined
  const aggregate = error instanceof AggregateError ? error.errors[0] : undefined
  return String((aggregate instanceof Error ? aggregate : error)?.message ?? cause)
}

/** A connection pool to a PostgreSQL server, with the engine's type parsers. */
export const layer = (options: PgConnectionOptions) =>
  PgClient.layer({
    url: options.url,
    maxConnections: options.maxConnections ?? 10,
    applicationName: options.applicationName ?? "voice-agent-platform",
    types
  }).pipe(
    Layer.mapError((error) => new DatabaseUnreachable({ url: shown(options.url), reason: reasonOf(error) }))
  )

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
