import { PgClient } from "@effect/sql-pg"
import { SqlError } from "@effect/sql"
import { Config, Data, Duration, Effect, Layer, Redacted } from "effect"
import pg from "pg"
import * as PgLookupFeed from "../lookups/PgLookupFeed.js"

/** PostgreSQL's type number for `int8` (`bigint`). */
const int8 = 20

/**
 * Ids, counts and money are `bigint` columns, which `pg` hands back as strings. They are read as numbers
 * instead, and a value past 2^53 (which no id or balance here reaches) is refused rather than rounded.
 */
export const parseInt8 = (text: string): number => {
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
  /**
   * How long opening a connection, or waiting for a free one in the pool, may take before the query fails
   * (default 10 s). Without it a database that accepts and never answers holds every query forever.
   */
  readonly connectTimeout?: Duration.DurationInput
  /** PostgreSQL's `statement_timeout`: the longest one statement may run (default 60 s; zero: no limit). */
  readonly statementTimeout?: Duration.DurationInput
  /**
   * PostgreSQL's `idle_in_transaction_session_timeout`: a transaction left idle this long is ended by the
   * server and its locks freed (default 60 s; zero: no limit).
   */
  readonly idleInTransactionTimeout?: Duration.DurationInput
}

/** The timeouts used when the options leave them out. */
export const defaultTimeouts = {
  connectTimeout: Duration.seconds(10),
  statementTimeout: Duration.seconds(60),
  idleInTransactionTimeout: Duration.seconds(60)
} as const

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
const withoutPassword = (url: Redacted.Redacted): string => {
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

/** Whole milliseconds of a duration, as PostgreSQL's settings take them (0: no limit). */
const millis = (duration: Duration.DurationInput): number =>
  Math.max(0, Math.ceil(Duration.toMillis(duration)))

/** How a duration is said in a message: "1.5 s". */
const seconds = (duration: Duration.Duration): string => `${Duration.toMillis(duration) / 1000} s`

/**
 * A connection pool to a PostgreSQL server, with the engine's type parsers and its timeouts: connecting
 * (and waiting for a pooled connection) is bounded by `connectTimeout`, each session runs with
 * `statement_timeout` and `idle_in_transaction_session_timeout` set. The layer fails with
 * `DatabaseUnreachable` when the first connection cannot be made within `connectTimeout`. It also
 * provides the lookup cache (`Lookups`), fed by one more connection listening for changes (`PgLookupFeed`).
 */
export const layer = (options: PgConnectionOptions) => {
  const connectTimeout = Duration.decode(options.connectTimeout ?? defaultTimeouts.connectTimeout)
  const statementTimeout = millis(options.statementTimeout ?? defaultTimeouts.statementTimeout)
  const idleInTransactionTimeout = millis(
    options.idleInTransactionTimeout ?? defaultTimeouts.idleInTransactionTimeout
  )
  const applicationName = options.applicationName ?? "voice-agent-platform"
  const openPool = Effect.acquireRelease(
    Effect.sync(() => {
      const pool = new pg.Pool({
        connectionString: Redacted.value(options.url),
        max: options.maxConnections ?? 10,
        application_name: applicationName,
        types,
        connectionTimeoutMillis: Math.max(1, Math.ceil(Duration.toMillis(connectTimeout))),
        // 0 is "not set" for pg, which is PostgreSQL's own "no limit".
        statement_timeout: statementTimeout,
        idle_in_transaction_session_timeout: idleInTransactionTimeout
      })
      // An idle connection the server drops emits an error on the pool; the next query reconnects.
      pool.on("error", () => undefined)
      return pool
    }),
    (pool) => Effect.promise(() => pool.end()).pipe(Effect.timeoutOption(1000), Effect.asVoid)
  )
  // The first connection proves the database is there; the same deadline bounds it, whatever the socket does.
  const firstConnection = (pool: pg.Pool) =>
    Effect.tryPromise({
      try: () => pool.query("SELECT 1"),
      catch: (cause) => new SqlError.SqlError({ cause, message: "PgClient: Failed to connect" })
    }).pipe(
      Effect.timeoutFail({
        duration: connectTimeout,
        onTimeout: () =>
          new SqlError.SqlError({
            cause: new Error(`no answer within ${seconds(connectTimeout)}`),
            message: "PgClient: Connection timed out"
          })
      })
    )
  const client = PgClient.layerFromPool({
    acquire: Effect.tap(openPool, firstConnection),
    applicationName,
    types
  }).pipe(
    Layer.mapError(
      (error) => new DatabaseUnreachable({ url: withoutPassword(options.url), reason: reasonOf(error) })
    )
  )
  // API keys and agents are kept in memory while a connection of their own listens for their changes.
  const lookups = PgLookupFeed.layer({
    connectionString: Redacted.value(options.url),
    application_name: `${applicationName} (lookups)`,
    connectionTimeoutMillis: Math.max(1, Math.ceil(Duration.toMillis(connectTimeout))),
    keepAlive: true
  })
  return Layer.merge(client, lookups)
}

/** A duration in whole seconds or milliseconds from the environment, at least zero. */
const nonNegative = (name: string, unit: "seconds" | "millis", fallback: Duration.Duration) =>
  Config.number(name).pipe(
    Config.validate({
      message: `${name} must be a number of ${unit === "seconds" ? "seconds" : "milliseconds"}, 0 or more`,
      validation: (n) => Number.isFinite(n) && n >= 0
    }),
    Config.map((n) => (unit === "seconds" ? Duration.seconds(n) : Duration.millis(n))),
    Config.withDefault(fallback)
  )

/** The timeouts from the environment, each with its documented default. */
export const timeoutsConfig = Config.all({
  connectTimeout: nonNegative(
    "DATABASE_CONNECT_TIMEOUT_SECONDS",
    "seconds",
    defaultTimeouts.connectTimeout
  ).pipe(
    Config.validate({
      message: "DATABASE_CONNECT_TIMEOUT_SECONDS must be more than 0",
      validation: (d) => Duration.toMillis(d) > 0
    })
  ),
  statementTimeout: nonNegative("DATABASE_STATEMENT_TIMEOUT_MS", "millis", defaultTimeouts.statementTimeout),
  idleInTransactionTimeout: nonNegative(
    "DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS",
    "millis",
    defaultTimeouts.idleInTransactionTimeout
  )
})

/**
 * The same, configured by `DATABASE_URL`, `DATABASE_MAX_CONNECTIONS` (default 10) and the timeouts:
 * `DATABASE_CONNECT_TIMEOUT_SECONDS` (10), `DATABASE_STATEMENT_TIMEOUT_MS` (60000),
 * `DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS` (60000); 0 turns the last two off.
 */
export const layerConfig = Layer.unwrapEffect(
  Effect.map(
    Config.all({
      url: Config.redacted("DATABASE_URL"),
      maxConnections: Config.integer("DATABASE_MAX_CONNECTIONS").pipe(Config.withDefault(10)),
      timeouts: timeoutsConfig
    }),
    ({ timeouts, ...rest }) => layer({ ...rest, ...timeouts })
  )
)
