import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { ConfigProvider, Effect, Exit, Layer } from "effect"
import * as PgConnection from "../../src/connection/PgConnection.js"
import { serverReachable, serverUrl, warnUnreachable } from "../../testing/TestDatabase.js"

const reachable = await serverReachable()
if (!reachable) warnUnreachable("the connection tests")

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
})
