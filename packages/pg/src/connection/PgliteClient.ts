import type { PGlite, QueryOptions, Results } from "@electric-sql/pglite"
import * as Reactivity from "@effect/experimental/Reactivity"
import { SqlClient, SqlError } from "@effect/sql"
import type { Connection } from "@effect/sql/SqlConnection"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Stream } from "effect"
import { channel, LookupCache, Lookups } from "../lookups/LookupCache.js"
import { parseInt8 } from "./PgConnection.js"
import { PglitePreparedStatements } from "./PglitePreparedStatements.js"

/**
 * PostgreSQL's type number for `int8`, read as the PostgreSQL server's client reads it (a safe number).
 * Given when the database is opened (`PGlite.create(…, { parsers })`, as `EmbeddedPostgres` opens it): a
 * statement that names parsers of its own costs PGlite a copy of its whole parser table (318 entries,
 * types and their arrays) on every call, 0.1–0.3 ms of processor time a statement here. A database
 * opened without them (an embedder's own) still gets them with each statement.
 */
export const parsers = { 20: parseInt8 }

/** What each statement asks PGlite for: the parsers only when the database was not opened with them. */
const queryOptions = (db: PGlite, rowMode: "object" | "array"): QueryOptions =>
  db.parsers[20] === parseInt8 ? { rowMode } : { parsers, rowMode }

type Rows = ReadonlyArray<Record<string, unknown>>
type Transform = (<A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined

const failed = (cause: unknown) => new SqlError.SqlError({ cause, message: "Failed to execute statement" })

/**
 * One statement (or, without parameters, a script of several, as the `pg` driver's simple protocol
 * allows) and its results. The promise is awaited uninterruptibly: PGlite cannot stop a statement it has
 * started, so an interrupted caller waits for it to end rather than leaving it running unseen.
 */
const results = (
  db: PGlite,
  prepared: PglitePreparedStatements | undefined,
  sql: string,
  params: ReadonlyArray<unknown>,
  options: QueryOptions
): Effect.Effect<ReadonlyArray<Results<any>>, SqlError.SqlError> =>
  Effect.uninterruptible(
    Effect.tryPromise({
      try: async () => {
        if (params.length === 0) return db.exec(sql, options)
        const result =
          (await prepared?.query(sql, params, options)) ??
          (await db.query(sql, params as Array<unknown>, options))
        return [result]
      },
      catch: failed
    })
  )

/** The rows as `@effect/sql-pg` answers them: one statement's rows, or the rows of each. */
const rowsOf = (all: ReadonlyArray<Results<any>>): Rows | ReadonlyArray<Rows> =>
  all.length === 1 ? all[0]!.rows : all.map((result) => result.rows)

/**
 * A connection that runs each statement under `exclusive` (every statement outside a transaction), through
 * `prepared` statements where it can (`PglitePreparedStatements`: outside transactions only).
 */
const connection = (
  db: PGlite,
  exclusive: <A, E>(effect: Effect.Effect<A, E>) => Effect.Effect<A, E>,
  prepared?: PglitePreparedStatements
): Connection => {
  // the database's parsers do not change once it is open: the options are chosen once
  const objects = queryOptions(db, "object")
  const arrays = queryOptions(db, "array")
  const execute = (sql: string, params: ReadonlyArray<unknown>, transform: Transform) =>
    exclusive(
      Effect.map(results(db, prepared, sql, params, objects), (all) => {
        const rows = rowsOf(all) as ReadonlyArray<any>
        return transform === undefined ? rows : transform(rows)
      })
    )
  return {
    execute,
    executeUnprepared: execute,
    executeRaw: (sql, params) =>
      exclusive(
        Effect.map(results(db, prepared, sql, params, objects), (all) => (all.length === 1 ? all[0] : all))
      ),
    executeValues: (sql, params) =>
      exclusive(
        Effect.map(results(db, prepared, sql, params, arrays), (all) => all[all.length - 1]?.rows ?? [])
      ),
    executeStream: (sql, params, transform) =>
      Stream.fromIterableEffect(
        execute(sql, params, transform) as Effect.Effect<Iterable<any>, SqlError.SqlError>
      )
  }
}

/**
 * An `@effect/sql` client over PGlite's own query API, in this process: no socket, no second protocol
 * parser. PGlite is one backend, so a transaction holds it whole: a statement outside any transaction
 * waits while one is open (exactly as the one-connection pool it replaces did), and a transaction's own
 * statements run on the connection it reserved. Statements use the PostgreSQL client's SQL compiler, so
 * every store's SQL is the same on both databases.
 */
export const make = (db: PGlite): Effect.Effect<SqlClient.SqlClient, never, Reactivity.Reactivity> =>
  Effect.gen(function* () {
    const lock = yield* Effect.makeSemaphore(1)
    const shared = connection(db, lock.withPermits(1), new PglitePreparedStatements(db))
    const reserved = connection(db, (effect) => effect)
    return yield* SqlClient.make({
      acquirer: Effect.succeed(shared),
      transactionAcquirer: Effect.as(
        Effect.acquireRelease(lock.take(1), () => lock.release(1)),
        reserved
      ),
      compiler: PgClient.makeCompiler(),
      spanAttributes: [["db.system.name", "postgresql"]]
    })
  })

/**
 * The client as a layer over a database that the caller opens and closes, with the lookup cache
 * (`Lookups`), fed by the database's own notifications: PGlite delivers them in this process before the
 * statement that committed the change returns.
 */
export const layer = (db: PGlite): Layer.Layer<SqlClient.SqlClient | Lookups> =>
  Layer.merge(
    Layer.effect(SqlClient.SqlClient, make(db)).pipe(Layer.provide(Reactivity.layer)),
    Layer.scoped(
      Lookups,
      Effect.gen(function* () {
        const cache = new LookupCache()
        const unlisten = yield* Effect.promise(() =>
          db.listen(channel, (payload) => cache.invalidate(payload))
        )
        yield* Effect.addFinalizer(() => Effect.promise(() => unlisten()).pipe(Effect.ignore))
        cache.setLive(true)
        // Every writer is in this process (the data directory is locked), and PGlite hands notifications
        // over before the committing statement returns: nothing can be in flight, no fence is needed.
        return { cache, fence: Effect.succeed(true) }
      })
    )
  )
