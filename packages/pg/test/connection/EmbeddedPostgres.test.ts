import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import * as EmbeddedPostgres from "../../src/connection/EmbeddedPostgres.js"

describe("EmbeddedPostgres", () => {
  it.live("opens PGlite with the documented buffer cache, not PostgreSQL's default", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const [setting] = yield* sql<{ value: string }>`SELECT current_setting('shared_buffers') AS value`
      expect(setting?.value).toBe(EmbeddedPostgres.sharedBuffers)
    }).pipe(Effect.provide(EmbeddedPostgres.layer()))
  )
})
