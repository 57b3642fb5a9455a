import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Cause, ConfigProvider, Duration, Effect, Exit, Layer, Redacted } from "effect"
import { createServer, type Socket } from "node:net"
import * as PgConnection from "../../src/connection/PgConnection.js"
import { serverReachable, serverUrl, warnUnreachable } from "../../testing/TestDatabase.js"

const reachable = await serverReachable()
if (!reachable) warnUnreachable("the connection tests")

/** The typed failure of an exit, if it failed with one. */
const failureOf = (exit: Exit.Exit<unknown, unknown>): any =>
  Exit.isFailure(exit)
    ? Cause.failureOption(exit.cause).pipe((o) => (o._tag === "Some" ? o.value : undefined))
    : undefined

const fromEnvironment = (entries: ReadonlyArray<readonly [string, string]>) =>
  Layer.setConfigProvider(ConfigProvider.fromMap(new Map(entries)))

describe.skipIf(!reachable)("PgConnection (PostgreSQL)", () => {
  it.live("layerConfig connects to DATABASE_URL and reads int8 as numbers", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ n: unknown }>`SELECT 9007199254740991::int8 AS n`
      expect(row?.n).toBe(9007199254740991)
      const unsafe = yield* Effect.exit(sql`SELECT 9007199254740992::int8 AS n`)
      expect(Exit.isFailure(unsafe)).toBe(true)
    }).pipe(
      Effect.provide(
        PgConnection.layerConfig.pipe(Layer.provide(fromEnvironment([["DATABASE_URL", serverUrl]])))
      )
    )
  )

  it.live("names the database and the reason when it cannot connect, never the password", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(
        Layer.build(
          PgConnection.layerConfig.pipe(
            Layer.provide(fromEnvironment([["DATABASE_URL", "postgres://u:hunter2@127.0.0.1:1/voice"]]))
          )
        ).pipe(Effect.scoped)
      )
      expect(String(exit)).toContain("postgres://u:***@127.0.0.1:1/voice")
      expect(String(exit)).not.toContain("hunter2")
    })
  )

  it.live("cuts a statement that runs past statement_timeout, and a transaction left idle", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const started = Date.now()
      const slow = yield* Effect.exit(sql`SELECT pg_sleep(20)`)
      expect(Exit.isFailure(slow)).toBe(true)
      // 57014: query_canceled, what PostgreSQL answers when statement_timeout strikes
      expect(failureOf(slow)?.cause?.code).toBe("57014")
      // generous: the statement would take 20 s; the limit is 0.3 s
      expect(Date.now() - started).toBeLessThan(10_000)
      // a short statement still runs
      const [row] = yield* sql<{ n: number }>`SELECT 1::int AS n`
      expect(row?.n).toBe(1)
      // a transaction idle longer than idle_in_transaction_session_timeout is ended by the server
      const idle = yield* Effect.exit(
        sql.withTransaction(
          Effect.gen(function* () {
            yield* sql`SELECT 1`
            yield* Effect.sleep(Duration.seconds(2))
            yield* sql`SELECT 1`
          })
        )
      )
      expect(Exit.isFailure(idle)).toBe(true)
      // the session runs with both settings
      const [settings] = yield* sql<{ statement: string; idle: string }>`
        SELECT current_setting('statement_timeout') AS statement,
               current_setting('idle_in_transaction_session_timeout') AS idle`
      expect(settings).toEqual({ statement: "300ms", idle: "500ms" })
    }).pipe(
      Effect.provide(
        PgConnection.layerConfig.pipe(
          Layer.provide(
            fromEnvironment([
              ["DATABASE_URL", serverUrl],
              ["DATABASE_STATEMENT_TIMEOUT_MS", "300"],
              ["DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS", "500"]
            ])
          )
        )
      )
    )
  )
})

describe("PgConnection timeouts without a database", () => {
  it.live(
    "fails within the connect timeout, naming the database, when the port accepts and never answers",
    () =>
      Effect.gen(function* () {
        // A loopback port that takes the connection and never says a word: no PostgreSQL handshake ever comes.
        const sockets: Array<Socket> = []
        const silent = createServer((socket) => void sockets.push(socket))
        const port = yield* Effect.async<number>((resume) => {
          silent.listen(0, "127.0.0.1", () => {
            const address = silent.address()
            resume(Effect.succeed(typeof address === "object" && address !== null ? address.port : 0))
          })
        })
        yield* Effect.addFinalizer(() =>
          Effect.sync(() => {
            for (const socket of sockets) socket.destroy()
            silent.close()
          })
        )
        const started = Date.now()
        const exit = yield* Effect.exit(
          Layer.build(
            PgConnection.layer({
              url: Redacted.make(`postgres://u:hunter2@127.0.0.1:${port}/voice`),
              connectTimeout: Duration.seconds(1)
            })
          ).pipe(Effect.scoped)
        )
        const elapsed = Date.now() - started
        expect(Exit.isFailure(exit)).toBe(true)
        expect(failureOf(exit)?.message).toContain(
          `Cannot connect to the PostgreSQL database at postgres://u:***@127.0.0.1:${port}/voice`
        )
        expect(failureOf(exit)?.message).toMatch(/timeout|within 1 s/i)
        expect(String(exit)).not.toContain("hunter2")
        // well under the 5 s the client library waits by itself, with room for a loaded machine
        expect(elapsed).toBeLessThan(4_000)
        expect(sockets.length).toBeGreaterThan(0)
      }).pipe(Effect.scoped)
  )
})
