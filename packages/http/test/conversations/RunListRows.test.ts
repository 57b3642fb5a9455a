import { describe, expect, layer } from "@effect/vitest"
import { EncodedPage, Page, Run, RunStore } from "@voice-agent-platform/core"
import { Fixtures } from "@voice-agent-platform/core/testing"
import { PgStorage } from "@voice-agent-platform/pg"
import { TestDatabase } from "@voice-agent-platform/pg/testing"
import { Effect, FastCheck, Layer, Option, Schema } from "effect"
import { RunSummaryResponse } from "@voice-agent-platform/contract/conversations/ConversationsApi.js"
import { PageOf, render } from "@voice-agent-platform/contract/shared/Pagination.js"
import { runSummaryResponse } from "../../src/conversations/RunResponses.js"

/**
 * The runs list reads its rows without the schema (`packages/pg/src/runs/RunSummaryRows.ts`: instants as
 * epoch milliseconds, no decode), and the API's list has the database write its runs' JSON
 * (`listEncoded`). Both must answer what the schema would: each run read back through the record's
 * schema (`find`), encoded with `PageOf(RunSummaryResponse)` and serialised — `list` byte for byte once
 * encoded so, `listEncoded`'s text byte for byte once parsed and serialised again (the database writes a
 * context as jsonb's text: spaces after `:` and `,`, numbers as stored, which parse to the same values).
 * Generated runs go through the store into PGlite and PostgreSQL and are listed back.
 */

const schemaEncoded = (page: Page.Page<typeof RunSummaryResponse.Type>) =>
  JSON.stringify(Schema.encodeSync(PageOf(RunSummaryResponse, "RunPage"))(page))

// Strings PostgreSQL's jsonb holds: any code point but NUL (jsonb refuses `\u0000`); escapes, quotes,
// backslashes, control characters, line separators, astral characters.
const text = FastCheck.oneof(
  FastCheck.fullUnicodeString({ maxLength: 8 }),
  FastCheck.stringOf(
    FastCheck.constantFrom('"', "\\", "\n", "\t", "\u0001", "\u001f", "\u2028", "é", "😀", "/"),
    {
      maxLength: 6
    }
  )
).map((s) => s.replaceAll("\u0000", ""))
// Keys in every order JavaScript and jsonb disagree on: integer-like ones (JavaScript puts them first,
// ascending), short and long ones (jsonb sorts by length), `__proto__` (the schema drops it).
const key = FastCheck.oneof(
  text,
  FastCheck.integer({ min: 0, max: 10_000 }).map(String),
  FastCheck.constantFrom("__proto__", "a", "10", "01", "-1", "1.5", "Z")
)
const number = FastCheck.oneof(
  FastCheck.double({ noNaN: true, noDefaultInfinity: true }),
  FastCheck.integer(),
  FastCheck.constantFrom(0, -0, 1e21, 1e-7, 0.1, 123456789012345680000, Number.MAX_SAFE_INTEGER, 5e-324)
)
const value = FastCheck.letrec((tie) => ({
  value: FastCheck.oneof(
    { depthSize: "small" },
    text,
    number,
    FastCheck.boolean(),
    FastCheck.constant(null),
    FastCheck.array(tie("value"), { maxLength: 3 }),
    FastCheck.dictionary(key, tie("value"), { maxKeys: 3 })
  )
})).value
const context = FastCheck.dictionary(key, value, { maxKeys: 6 })
const instant = FastCheck.date({
  min: new Date("0100-01-01T00:00:00.000Z"),
  max: new Date("9999-12-31T23:59:59.999Z"),
  noInvalidDate: true
})
const run = FastCheck.record({
  mode: FastCheck.constantFrom(...Run.RunMode.literals),
  status: FastCheck.constantFrom(...Run.RunStatus.literals),
  initial_context: context,
  gathered_context: context,
  duration_seconds: FastCheck.option(FastCheck.integer({ min: 0, max: 2_147_483_647 }), { nil: null }),
  // a few instants, so that runs tie on their creation time
  created_at: FastCheck.oneof(
    instant,
    FastCheck.constantFrom(new Date(0), new Date("2026-11-24T06:00:00.123Z"))
  ),
  ended_at: FastCheck.option(instant, { nil: null }),
  phone_number: FastCheck.option(FastCheck.constantFrom("+48500000100", "+12125550100"), { nil: null }),
  disposition: FastCheck.option(text, { nil: null })
})

const listsAsTheSchemaDid = (
  runs: ReadonlyArray<typeof run extends FastCheck.Arbitrary<infer A> ? A : never>
) =>
  Effect.gen(function* () {
    const store = yield* RunStore.RunStore
    const organization = yield* Fixtures.organization()
    const { agent } = yield* Fixtures.agent(organization.id)
    for (const { created_at, ...fields } of runs) {
      yield* store.insert(Fixtures.newRun(organization.id, agent.id, fields), created_at)
    }
    // Every run as the record's schema reads it, newest first (ties: the higher id first).
    const decoded: Array<Run.Run> = []
    for (const summary of (yield* store.list(organization.id, agent.id, {}, { page: 1, limit: 100 })).items) {
      decoded.push(Option.getOrThrow(yield* store.find(organization.id, summary.workflow_run_id)))
    }
    const newestFirst = [...decoded].sort(
      (a, b) => b.created_at.getTime() - a.created_at.getTime() || b.workflow_run_id - a.workflow_run_id
    )
    expect(decoded.map((r) => r.workflow_run_id)).toEqual(newestFirst.map((r) => r.workflow_run_id))
    expect(decoded.length).toBe(runs.length)
    const expected = (items: ReadonlyArray<Run.Run>, total: number, page: number, limit: number) =>
      schemaEncoded(render(Page.make(items, total, { page, limit }), runSummaryResponse))
    const listed = (filter: Parameters<RunStore.RunStore["Type"]["list"]>[2], page: number, limit: number) =>
      Effect.gen(function* () {
        const answer = schemaEncoded(
          render(yield* store.list(organization.id, agent.id, filter, { page, limit }), runSummaryResponse)
        )
        const encoded = EncodedPage.json(
          yield* store.listEncoded(organization.id, agent.id, filter, { page, limit })
        )
        expect(JSON.stringify(JSON.parse(encoded))).toBe(answer)
        return answer
      })
    // The first page (one statement: the kept count and the page), a later one, and a filtered one.
    expect(yield* listed({}, 1, 50)).toBe(expected(decoded.slice(0, 50), decoded.length, 1, 50))
    expect(yield* listed({}, 2, 3)).toBe(expected(decoded.slice(3, 6), decoded.length, 2, 3))
    const completed = decoded.filter((r) => r.status === "completed")
    expect(yield* listed({ status: "completed" }, 1, 50)).toBe(expected(completed, completed.length, 1, 50))
    // the list across agents (read the same way, with the run's number, disposition and agent) as well
    const across = yield* store.listAcrossAgents(organization.id, {}, { page: 1, limit: 100 })
    expect(across.items).toEqual(
      decoded.map((r) => ({
        ...Object.fromEntries(
          Object.keys(Run.RunSummary.fields).map((name) => [name, r[name as keyof Run.Run]])
        ),
        phone_number: r.phone_number,
        disposition: r.disposition,
        agent_public_id: agent.public_id,
        agent_name: agent.name
      }))
    )
  })

const stores = (database: Layer.Layer<any, unknown>) =>
  PgStorage.layer.pipe(Layer.provide(Layer.merge(database, TestDatabase.layerSecretBox)))

const property = (name: string, database: Layer.Layer<any, unknown>) =>
  layer(stores(database), { timeout: "120 seconds" })(name, (it) => {
    it.effect.prop(
      "answers the schema-encoded page of the runs as stored, read and written by the database",
      [FastCheck.array(run, { maxLength: 12 })],
      ([runs]) => listsAsTheSchemaDid(runs),
      { timeout: 120_000, fastCheck: { numRuns: 40 } }
    )
  })

property("the runs list read without the schema, on PGlite", TestDatabase.layerEmbedded)

if (await TestDatabase.serverReachable()) {
  property("the runs list read without the schema, on PostgreSQL", TestDatabase.layerFreshDatabase)
} else {
  TestDatabase.warnUnreachable("the runs list's bytes on PostgreSQL")
  describe.skip("the runs list read without the schema, on PostgreSQL (server not reachable)", () => {})
}
