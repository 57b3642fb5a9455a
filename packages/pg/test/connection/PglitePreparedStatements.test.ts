import { SqlClient } from "@effect/sql"
import * as Reactivity from "@effect/experimental/Reactivity"
import { PGlite } from "@electric-sql/pglite"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Layer } from "effect"
import * as PgliteClient from "../../src/connection/PgliteClient.js"

const db = await PGlite.create()
afterAll(() => db.close())
const client = Layer.effect(SqlClient.SqlClient, PgliteClient.make(db)).pipe(Layer.provide(Reactivity.layer))

const exists = async (table: string) =>
  (await db.query<{ r: string | null }>("SELECT to_regclass($1)::text AS r", [table])).rows[0]!.r !== null

/** The names under which PGlite's session holds `fragment`'s statement prepared. */
const preparedAs = async (fragment: string) =>
  (
    await db.query<{ name: string }>(
      "SELECT name FROM pg_prepared_statements WHERE statement LIKE '%' || $1 || '%'",
      [fragment]
    )
  ).rows.map((row) => row.name)

/** What PGlite's own `query` answers (or the error it fails with), the path without prepared statements. */
const unprepared = (sql: string, params: Array<unknown>) =>
  db.query(sql, params).then(
    (result) => ({ rows: result.rows }),
    (error: Error) => ({ error: error.message })
  )

/** The database's (or PGlite's) own message under the client's `SqlError`. */
const causeMessage = (cause: Cause.Cause<unknown>) => {
  const error = Cause.squash(cause) as { readonly cause?: { readonly message?: string } }
  return String(error.cause?.message)
}

const throughClient = (sql: string, params: Array<unknown>) =>
  Effect.gen(function* () {
    const client = yield* SqlClient.SqlClient
    const exit = yield* Effect.exit(client.unsafe(sql, params))
    return Exit.isSuccess(exit) ? { rows: exit.value } : { error: causeMessage(exit.cause) }
  })

describe("PglitePreparedStatements: a prepared statement behaves as the statement", () => {
  it.live("refuses a text with a second command, as before, and runs none of it", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const exit = yield* Effect.exit(sql.unsafe("SELECT $1::int AS n; CREATE TABLE side2 (a int)", [1]))
      expect(Exit.isFailure(exit)).toBe(true)
      expect(Exit.isFailure(exit) && causeMessage(exit.cause)).toBe(
        "cannot insert multiple commands into a prepared statement"
      )
      expect(yield* Effect.promise(() => exists("side2"))).toBe(false)
    }).pipe(Effect.provide(client))
  )

  it.live("writes literals that hold with standard_conforming_strings off", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`SET standard_conforming_strings = off`
      try {
        for (const text of ["\\'; CREATE TABLE side3 (a int); --", "a\\\\'' \\n", "\\"]) {
          const [row] = yield* sql<{ t: string }>`SELECT ${text}::text AS t, ${7}::int AS n`
          expect(row).toEqual({ t: text, n: 7 })
        }
        expect(yield* Effect.promise(() => preparedAs("AS t, $2::int AS n"))).toHaveLength(1)
        expect(yield* Effect.promise(() => exists("side3"))).toBe(false)
      } finally {
        yield* sql`RESET standard_conforming_strings`
      }
    }).pipe(Effect.provide(client))
  )

  it.live("answers as the unprepared path where PGlite serialises a parameter by its type", () =>
    Effect.gen(function* () {
      const cases: Array<[string, Array<unknown>]> = [
        ["SELECT $1::timestamptz AS at", [0]],
        ["SELECT $1::timestamptz AS at", ["2026-11-24T06:00:00Z"]],
        ["SELECT $1::bytea AS b", ["\\x01"]],
        ["SELECT $1::boolean AS b", [1]],
        ["SELECT $1::boolean AS b", ["tr"]],
        ["SELECT $1::date AS d", [86_400_000]]
      ]
      for (const [text, params] of cases) {
        // twice: the second call finds the statement's fate remembered
        for (const _ of [1, 2]) {
          const expected = yield* Effect.promise(() => unprepared(text, params))
          const actual = yield* throughClient(text, params)
          expect(actual).toEqual(expected)
        }
      }
      // the bytea and boolean statements were not kept prepared; the timestamptz one was (for strings)
      expect(yield* Effect.promise(() => preparedAs("$1::bytea"))).toEqual([])
      expect(yield* Effect.promise(() => preparedAs("$1::boolean"))).toEqual([])
      expect(yield* Effect.promise(() => preparedAs("$1::timestamptz"))).toHaveLength(1)
    }).pipe(Effect.provide(client))
  )

  it.live("prepares a statement whose table did not exist yet once it does", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const read = () => sql<{ id: number }>`SELECT id FROM later WHERE id = ${1}`
      expect(Exit.isFailure(yield* Effect.exit(read()))).toBe(true)
      yield* sql`CREATE TABLE later (id int8 PRIMARY KEY)`
      yield* sql`INSERT INTO later VALUES (${1})`
      expect(yield* read()).toEqual([{ id: 1 }])
      expect(yield* Effect.promise(() => preparedAs("FROM later WHERE"))).toHaveLength(1)
    }).pipe(Effect.provide(client))
  )
})
