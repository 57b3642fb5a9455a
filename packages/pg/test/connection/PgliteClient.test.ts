import { SqlClient } from "@effect/sql"
import * as Reactivity from "@effect/experimental/Reactivity"
import { PGlite } from "@electric-sql/pglite"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import * as PgliteClient from "../../src/connection/PgliteClient.js"

const db = await PGlite.create()
afterAll(() => db.close())
const client = Layer.effect(SqlClient.SqlClient, PgliteClient.make(db)).pipe(Layer.provide(Reactivity.layer))

/** The statements PGlite's session holds prepared. */
const preparedCount = async () =>
  (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_prepared_statements")).rows[0]!.n

/** The names under which the session holds statements whose text contains `fragment`. */
const preparedAs = async (fragment: string) =>
  (
    await db.query<{ name: string }>(
      "SELECT name FROM pg_prepared_statements WHERE statement LIKE '%' || $1 || '%'",
      [fragment]
    )
  ).rows.map((row) => row.name)

describe("PgliteClient: statements prepared once, outside transactions", () => {
  it.live("answers a prepared statement exactly as the statement, whatever its string parameters hold", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const before = yield* Effect.promise(preparedCount)
      for (const text of [
        "plain",
        "it's",
        "''",
        "back\\slash \\' \\\\",
        "zażółć 😀 \n\t\u0001",
        "$1 ; --",
        ""
      ]) {
        const [row] = yield* sql<{ t: string; n: number; l: number }>`
          SELECT ${text}::text AS t, ${41}::int8 + 1 AS n, length(${text}) AS l`
        expect(row).toEqual({ t: text, n: 42, l: [...text].length })
      }
      // one statement text, prepared once
      expect((yield* Effect.promise(preparedCount)) - before).toBe(1)
    }).pipe(Effect.provide(client))
  )

  it.live("runs a statement with other parameters (null, a Date, JSON) as before, unprepared", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const before = yield* Effect.promise(preparedCount)
      const at = new Date("2026-11-24T06:00:00.123Z")
      const [row] = yield* sql<{ at: Date; missing: string | null; doc: unknown }>`
        SELECT ${at}::timestamptz AS at, ${null}::text AS missing, ${JSON.stringify({ a: [1] })}::jsonb AS doc`
      expect(row).toEqual({ at, missing: null, doc: { a: [1] } })
      const [again] = yield* sql<{ missing: string | null }>`SELECT ${null}::text AS missing`
      expect(again).toEqual({ missing: null })
      // neither was prepared: a Date and a null are not parameters it writes as literals
      expect((yield* Effect.promise(preparedCount)) - before).toBe(0)
    }).pipe(Effect.provide(client))
  )

  it.live("keeps answering when a prepared statement's table changes shape", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE shapes (id int8 PRIMARY KEY, name text)`
      yield* sql`INSERT INTO shapes VALUES (${1}, ${"one"})`
      const read = () => sql<Record<string, unknown>>`SELECT * FROM shapes WHERE id = ${1}`
      expect(yield* read()).toEqual([{ id: 1, name: "one" }])
      const [before] = yield* Effect.promise(() => preparedAs("FROM shapes WHERE"))
      expect(before).toBeDefined()
      yield* sql`ALTER TABLE shapes ADD COLUMN extra text NOT NULL DEFAULT 'x'`
      expect(yield* read()).toEqual([{ id: 1, name: "one", extra: "x" }])
      // the stale statement was dropped, and the next call prepares it again, under a new name
      expect(yield* Effect.promise(() => preparedAs("FROM shapes WHERE"))).toEqual([])
      expect(yield* read()).toEqual([{ id: 1, name: "one", extra: "x" }])
      const after = yield* Effect.promise(() => preparedAs("FROM shapes WHERE"))
      expect(after).toHaveLength(1)
      expect(after[0]).not.toBe(before)
      // errors are the statement's own
      const duplicate = yield* Effect.exit(sql`INSERT INTO shapes VALUES (${1}, ${"again"})`)
      expect(Exit.isFailure(duplicate)).toBe(true)
      expect(JSON.stringify(duplicate)).toContain("23505")
    }).pipe(Effect.provide(client))
  )

  it.live("prepares nothing inside a transaction, and a failed transaction leaves the session usable", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE tallies (id int8 PRIMARY KEY, n int8 NOT NULL)`
      const before = yield* Effect.promise(preparedCount)
      yield* sql.withTransaction(
        Effect.gen(function* () {
          yield* sql`INSERT INTO tallies VALUES (${1}, ${10})`
          yield* sql`UPDATE tallies SET n = n + ${5} WHERE id = ${1}`
        })
      )
      expect((yield* Effect.promise(preparedCount)) - before).toBe(0)
      const failed = yield* Effect.exit(
        sql.withTransaction(
          Effect.zipRight(sql`UPDATE tallies SET n = n + ${1} WHERE id = ${1}`, Effect.fail("undone"))
        )
      )
      expect(Exit.isFailure(failed)).toBe(true)
      expect(yield* sql<{ n: number }>`SELECT n FROM tallies WHERE id = ${1}`).toEqual([{ n: 15 }])
    }).pipe(Effect.provide(client))
  )
})

describe("PgliteClient: int8 read as a safe number, opened with the parsers or not", () => {
  const reads = (database: PGlite) =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ n: unknown; none: unknown }>`
        SELECT ${9_007_199_254_740_990}::int8 + 1 AS n, NULL::int8 AS none`
      expect(row).toEqual({ n: 9_007_199_254_740_991, none: null })
      // past 2^53 a read is refused, as the PostgreSQL server's client refuses it
      expect(Exit.isFailure(yield* Effect.exit(sql`SELECT 9007199254740993::int8 AS n`))).toBe(true)
      // a script (no parameters) reads the same
      const [scripted] = yield* sql.unsafe<{ n: unknown }>("SELECT 42::int8 AS n")
      expect(scripted).toEqual({ n: 42 })
    }).pipe(
      Effect.provide(
        Layer.effect(SqlClient.SqlClient, PgliteClient.make(database)).pipe(Layer.provide(Reactivity.layer))
      )
    )

  it.live("over a database opened with the client's parsers (as EmbeddedPostgres opens it)", () =>
    Effect.acquireUseRelease(
      Effect.promise(() => PGlite.create({ parsers: PgliteClient.parsers })),
      reads,
      (database) => Effect.promise(() => database.close())
    )
  )

  it.live("over a database opened without them (each statement then names them)", () => reads(db))
})
