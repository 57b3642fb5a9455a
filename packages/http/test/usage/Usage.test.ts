import { OpenApi } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { RunStore } from "@voice-agent-platform/core"
import { Effect } from "effect"
import { Api } from "@voice-agent-platform/contract/Api.js"
import { rawClient, TestServer, TestServerOverSql } from "../support/TestServer.js"
import { type Body, call, currentMonth, get, march, setup } from "../support/UsageFixtures.js"

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("usage over HTTP, %s storage", (_, server) => {
  it.live("sums the current UTC calendar month by default, at the new and the legacy address", () =>
    Effect.gen(function* () {
      const { org, agents, client } = yield* setup
      const stranger = yield* setup
      const month = currentMonth()
      yield* call(org.id, agents[0], month.from, 61, 122) // first instant: counted
      yield* call(org.id, agents[1], new Date(Date.now() - 1000), 30, 1999)
      yield* call(org.id, agents[0], new Date(month.from.getTime() - 1), 100, 5000) // last month
      yield* call(org.id, agents[0], month.to, 100, 5000) // next month
      yield* call(stranger.org.id, stranger.agents[0], new Date(), 500, 9999) // someone else's

      const expected = {
        from: month.from.toISOString(),
        to: month.to.toISOString(),
        calls: 2,
        duration_seconds: 91,
        cost_pln: 21.21,
        currency: "PLN"
      }
      const usage = yield* get(client, "/api/v1/usage")
      expect(usage.status).toBe(200)
      expect(usage.body).toEqual(expected)
      const legacy = yield* get(client, "/api/v1/organizations/usage/current-period")
      expect(legacy.status).toBe(200)
      expect(legacy.body).toEqual(expected)
      expect(legacy.headers["x-request-id"]).toBeDefined()
    }).pipe(Effect.provide(server))
  )

  it.live("sums a chosen period, echoing it; from is inclusive, to exclusive, offsets are honoured", () =>
    Effect.gen(function* () {
      const { org, agents, client } = yield* setup
      yield* call(org.id, agents[0], "2026-02-28T23:00:00Z", 10, 100) // 00:00 on 1 March in Warsaw
      yield* call(org.id, agents[0], "2026-03-01T00:00:00Z", 20, 200)
      yield* call(org.id, agents[1], "2026-03-31T23:59:59.999Z", 30, 300)
      yield* call(org.id, agents[1], "2026-04-01T00:00:00Z", 40, 400)

      const utc = yield* get(client, `/api/v1/usage?${march}`)
      expect(utc.status).toBe(200)
      expect(utc.body).toEqual({
        from: "2026-03-01T00:00:00.000Z",
        to: "2026-04-01T00:00:00.000Z",
        calls: 2,
        duration_seconds: 50,
        cost_pln: 5,
        currency: "PLN"
      })
      // "+" must be sent as %2B in a query
      const warsaw = yield* get(
        client,
        "/api/v1/usage?from=2026-03-01T00:00:00%2B01:00&to=2026-04-01T00:00:00%2B02:00"
      )
      expect(warsaw.body).toEqual({
        from: "2026-02-28T23:00:00.000Z",
        to: "2026-03-31T22:00:00.000Z",
        calls: 2,
        duration_seconds: 30,
        cost_pln: 3,
        currency: "PLN"
      })
      // only from: up to the end of the current month
      const since = (yield* get(client, "/api/v1/usage?from=2026-03-31T00:00:00Z")).body as Body
      expect(since).toMatchObject({ to: currentMonth().to.toISOString(), calls: 2, cost_pln: 7 })
    }).pipe(Effect.provide(server))
  )

  it.live(
    "answers 422 at the query for a period that does not start before it ends, or a date without a timezone",
    () =>
      Effect.gen(function* () {
        const { client } = yield* setup
        const reversed = yield* get(client, "/api/v1/usage?from=2026-04-01T00:00:00Z&to=2026-03-01T00:00:00Z")
        expect(reversed.status).toBe(422)
        expect(reversed.body).toEqual({
          detail: [
            {
              loc: ["query", "from"],
              msg: "from (2026-04-01T00:00:00.000Z) must be before to (2026-03-01T00:00:00.000Z)",
              type: "value_error"
            }
          ]
        })
        const empty = yield* get(
          client,
          "/api/v1/usage/runs?from=2026-03-01T00:00:00Z&to=2026-03-01T01:00:00%2B01:00"
        )
        expect(empty.status).toBe(422)
        expect((empty.body as Body).detail[0].loc).toEqual(["query", "from"])
        // only `to`, before the current month: the bound the caller gave is the one to change
        const onlyTo = yield* get(client, "/api/v1/reports/usage?to=2020-01-01T00:00:00Z")
        expect(onlyTo.status).toBe(422)
        expect((onlyTo.body as Body).detail).toEqual([
          {
            loc: ["query", "to"],
            msg: `from (${currentMonth().from.toISOString()}) must be before to (2020-01-01T00:00:00.000Z)`,
            type: "value_error"
          }
        ])
        const impossible = yield* get(client, "/api/v1/usage?from=2026-02-30T00:00:00Z")
        expect(impossible.status).toBe(422)
        expect(impossible.body).toMatchObject({ detail: [{ loc: ["query", "from"] }] })
        const noZone = yield* get(client, "/api/v1/usage?from=2026-03-01T00:00:00&to=tomorrow")
        expect(noZone.status).toBe(422)
        expect(noZone.body).toEqual({
          detail: [
            {
              loc: ["query", "from"],
              msg: "expected an ISO 8601 date-time with a timezone, e.g. 2026-03-01T00:00:00Z",
              type: "value_error"
            },
            {
              loc: ["query", "to"],
              msg: "expected an ISO 8601 date-time with a timezone, e.g. 2026-03-01T00:00:00Z",
              type: "value_error"
            }
          ]
        })
        const plusAsSpace = yield* get(client, "/api/v1/usage?from=2026-03-01T00:00:00+01:00")
        expect(plusAsSpace.status).toBe(422)
      }).pipe(Effect.provide(server))
  )

  it.live("lists the period's ledger lines newest first, paginated, at the new and the legacy address", () =>
    Effect.gen(function* () {
      const { org, agents, client } = yield* setup
      const stranger = yield* setup
      const older = yield* call(org.id, agents[0], "2026-03-01T08:00:00Z", 61, 122)
      const newer = yield* call(org.id, agents[1], "2026-03-02T08:00:00Z", 30, 1999)
      yield* call(org.id, agents[1], "2026-04-02T08:00:00Z", 30, 1999) // April
      yield* call(stranger.org.id, stranger.agents[0], "2026-03-01T09:00:00Z", 1, 1)

      const page = yield* get(client, `/api/v1/usage/runs?${march}`)
      expect(page.status).toBe(200)
      expect(page.body).toEqual({
        items: [
          {
            workflow_run_id: newer.run_id,
            workflow_id: agents[1],
            kind: "call",
            mode: "phone",
            duration_seconds: 30,
            cost_pln: 19.99,
            prompt_tokens: 0,
            completion_tokens: 0,
            currency: "PLN",
            recorded_at: "2026-03-02T08:00:00.000Z"
          },
          {
            workflow_run_id: older.run_id,
            workflow_id: agents[0],
            kind: "call",
            mode: "phone",
            duration_seconds: 61,
            cost_pln: 1.22,
            prompt_tokens: 0,
            completion_tokens: 0,
            currency: "PLN",
            recorded_at: "2026-03-01T08:00:00.000Z"
          }
        ],
        total_count: 2,
        total_pages: 1,
        page: 1,
        limit: 50
      })
      const legacy = yield* get(client, `/api/v1/organizations/usage/runs?${march}`)
      expect(legacy.status).toBe(200)
      expect(legacy.body).toEqual(page.body)

      const second = yield* get(client, `/api/v1/usage/runs?${march}&limit=1&page=2`)
      expect((second.body as Body).items.map((l: Body) => l.workflow_run_id)).toEqual([older.run_id])
      expect(second.body).toMatchObject({ total_count: 2, total_pages: 2, page: 2, limit: 1 })
      const past = yield* get(client, `/api/v1/usage/runs?${march}&page=5`)
      expect(past.body).toEqual({ items: [], total_count: 2, total_pages: 1, page: 5, limit: 50 })
      for (const path of ["/api/v1/usage/runs", "/api/v1/organizations/usage/runs"]) {
        const bounds = yield* get(client, `${path}?page=0&limit=101`)
        expect(bounds.status).toBe(422)
        expect(((bounds.body as Body).detail as Array<Body>).map((d) => d.loc.join(".")).sort()).toEqual([
          "query.limit",
          "query.page"
        ])
      }

      // erasing a call keeps its usage
      yield* (yield* RunStore.RunStore).remove(org.id, older.run_id!)
      expect(((yield* get(client, `/api/v1/usage/runs?${march}`)).body as Body).total_count).toBe(2)
    }).pipe(Effect.provide(server))
  )

  it.live("reports the period grouped by UTC day (the default) or by agent, adding up to the totals", () =>
    Effect.gen(function* () {
      const { org, agents, client } = yield* setup
      const stranger = yield* setup
      yield* call(org.id, agents[0], "2026-03-01T23:59:59.999Z", 61, 122)
      yield* call(org.id, agents[1], "2026-03-02T00:00:00Z", 30, 1999)
      yield* call(org.id, agents[0], "2026-03-02T10:00:00Z", 9, 10)
      yield* call(org.id, agents[0], "2026-04-01T00:00:00Z", 100, 5000) // April
      yield* call(stranger.org.id, stranger.agents[0], "2026-03-02T10:00:00Z", 500, 9999)

      const totals = { calls: 3, duration_seconds: 100, cost_pln: 21.31 }
      const byDay = yield* get(client, `/api/v1/reports/usage?${march}`)
      expect(byDay.status).toBe(200)
      expect(byDay.body).toEqual({
        from: "2026-03-01T00:00:00.000Z",
        to: "2026-04-01T00:00:00.000Z",
        group_by: "day",
        currency: "PLN",
        rows: [
          { day: "2026-03-01", calls: 1, duration_seconds: 61, cost_pln: 1.22 },
          { day: "2026-03-02", calls: 2, duration_seconds: 39, cost_pln: 20.09 }
        ],
        totals
      })
      const byAgent = yield* get(client, `/api/v1/reports/usage?${march}&group_by=agent`)
      expect(byAgent.status).toBe(200)
      expect(byAgent.body).toEqual({
        from: "2026-03-01T00:00:00.000Z",
        to: "2026-04-01T00:00:00.000Z",
        group_by: "agent",
        currency: "PLN",
        // agents by ascending number (ids are random, so either may come first)
        rows: [
          { workflow_id: agents[0], calls: 2, duration_seconds: 70, cost_pln: 1.32 },
          { workflow_id: agents[1], calls: 1, duration_seconds: 30, cost_pln: 19.99 }
        ].sort((a, b) => a.workflow_id - b.workflow_id),
        totals
      })
      const empty = yield* get(
        client,
        "/api/v1/reports/usage?from=2025-01-01T00:00:00Z&to=2025-02-01T00:00:00Z"
      )
      expect(empty.body).toMatchObject({ rows: [], totals: { calls: 0, duration_seconds: 0, cost_pln: 0 } })

      const badGroup = yield* get(client, "/api/v1/reports/usage?group_by=week")
      expect(badGroup.status).toBe(422)
      expect(badGroup.body).toEqual({
        detail: [{ loc: ["query", "group_by"], msg: "Input should be 'day' or 'agent'", type: "value_error" }]
      })
    }).pipe(Effect.provide(server))
  )

  it.live("refuses a period longer than a year with 422 at the bound to change, on every usage address", () =>
    Effect.gen(function* () {
      const { client } = yield* setup
      const tooLong = "from=2024-01-01T00:00:00Z&to=2025-01-01T00:00:00.001Z"
      for (const path of [
        "/api/v1/reports/usage",
        "/api/v1/usage",
        "/api/v1/usage/runs",
        "/api/v1/organizations/usage/runs"
      ]) {
        const refused = yield* get(client, `${path}?${tooLong}`)
        expect(refused.status).toBe(422)
        expect(refused.body).toEqual({
          detail: [
            {
              loc: ["query", "to"],
              msg: "The period from 2024-01-01T00:00:00.000Z to 2025-01-01T00:00:00.001Z is longer than a year; ask for at most a year at a time",
              type: "value_error.period_too_long"
            }
          ]
        })
      }
      // only `from` given, more than a year back: `from` is the bound to change
      const onlyFrom = yield* get(client, "/api/v1/reports/usage?from=2000-01-01T00:00:00Z")
      expect(onlyFrom.status).toBe(422)
      expect((onlyFrom.body as Body).detail[0].loc).toEqual(["query", "from"])
      // a whole year is one period
      const year = yield* get(
        client,
        "/api/v1/reports/usage?from=2024-01-01T00:00:00Z&to=2025-01-01T00:00:00Z&group_by=agent"
      )
      expect(year.status).toBe(200)
    }).pipe(Effect.provide(server))
  )

  it.live("answers 401 before anything else, and documents the legacy addresses as deprecated", () =>
    Effect.gen(function* () {
      const anonymous = yield* rawClient("")
      for (const path of [
        "/api/v1/usage?from=nonsense",
        "/api/v1/usage/runs",
        "/api/v1/reports/usage",
        "/api/v1/organizations/usage/current-period",
        "/api/v1/organizations/usage/runs"
      ]) {
        const refused = yield* get(anonymous, path)
        expect(refused.status).toBe(401)
        expect(refused.body).toEqual({ detail: "Invalid API key" })
      }
      const doc = OpenApi.fromApi(Api) as Body
      const operation = (path: string) => doc.paths[path].get
      expect(operation("/api/v1/organizations/usage/current-period").deprecated).toBe(true)
      expect(operation("/api/v1/organizations/usage/runs").deprecated).toBe(true)
      for (const path of ["/api/v1/usage", "/api/v1/usage/runs", "/api/v1/reports/usage"]) {
        expect(operation(path).deprecated).toBeUndefined()
      }
      expect(
        operation("/api/v1/reports/usage")
          .parameters.map((p: Body) => p.name)
          .sort()
      ).toEqual(["from", "group_by", "to"])
      expect(
        operation("/api/v1/usage/runs")
          .parameters.map((p: Body) => p.name)
          .sort()
      ).toEqual(["from", "limit", "page", "to"])
    }).pipe(Effect.provide(server))
  )
})
