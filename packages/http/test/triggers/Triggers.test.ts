import { HttpClientRequest } from "@effect/platform"
import type { HttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { MemoryTelephony, RunId, RunStore } from "@voice-agent-platform/core"
import { Effect, Option, TestClock } from "effect"
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"

// 12:00 in Warsaw (CET, UTC+1): inside calling hours.
const warsawNoon = "2026-02-10T11:00:00.000Z"
const warsawNight = "2026-02-10T21:30:00.000Z"

const setNow = (iso: string) => TestClock.setTime(new Date(iso).getTime())

const script = {
  agent: { greeting: "Hello {{initial_context.first_name}}!", agent_goal: "Confirm the visit" }
}

type Body = Record<string, any>

/** An organization with an agent, and a client holding its key. */
const setup = (options: { readonly outbound_channels?: number } = {}) =>
  Effect.gen(function* () {
    const owner = yield* organization(options)
    const client = yield* rawClient(owner.apiKey)
    const created = yield* send(client, json("POST", "/api/v1/agents/from-script", script))
    expect(created.status).toBe(200)
    return { ...owner, client, agent: created.body as { id: number; public_id: string } }
  })

const createTrigger = (client: HttpClient.HttpClient, body: unknown) =>
  send(client, json("POST", "/api/v1/triggers", body))

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("triggers over HTTP, %s storage", (_, server) => {
  it.effect("creates a trigger and reads it, by the agent's public id or number", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { client, agent } = yield* setup()
      const created = yield* createTrigger(client, {
        agent_id: agent.public_id,
        name: "  Appointment reminders ",
        initial_context: { clinic: "Centrum" }
      })
      expect(created.status).toBe(200)
      const trigger = created.body as Body
      expect(trigger).toEqual({
        trigger_id: expect.stringMatching(/^trg_[A-Za-z0-9]{20}$/),
        workflow_id: agent.id,
        name: "Appointment reminders",
        initial_context: { clinic: "Centrum" },
        status: "active",
        created_at: warsawNoon
      })
      const read = yield* send(client, HttpClientRequest.get(`/api/v1/triggers/${trigger.trigger_id}`))
      expect(read.status).toBe(200)
      expect(read.body).toEqual(trigger)

      for (const agent_id of [agent.id, String(agent.id)]) {
        const byNumber = yield* createTrigger(client, { agent_id, name: "By number" })
        expect(byNumber.status).toBe(200)
        expect(byNumber.body).toMatchObject({ workflow_id: agent.id, initial_context: {} })
      }
    }).pipe(Effect.provide(server))
  )

  it.effect("answers 404 for an unknown or foreign agent or trigger, and 422 for a bad body", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { client, agent } = yield* setup()
      const stranger = yield* rawClient((yield* organization()).apiKey)
      const unknownAgent = yield* createTrigger(client, { agent_id: "agent_00000000000000000000", name: "x" })
      expect(unknownAgent.status).toBe(404)
      expect(unknownAgent.body).toEqual({ detail: "Agent agent_00000000000000000000 not found" })
      const foreignAgent = yield* createTrigger(stranger, { agent_id: agent.public_id, name: "x" })
      expect(foreignAgent.status).toBe(404)

      const trigger = (yield* createTrigger(client, { agent_id: agent.public_id, name: "T" })).body as Body
      for (const [c, id] of [
        [stranger, trigger.trigger_id],
        [client, "trg_00000000000000000000"],
        [client, "nonsense"]
      ] as const) {
        const missing = yield* send(c, HttpClientRequest.get(`/api/v1/triggers/${id}`))
        expect(missing.status).toBe(404)
        expect(missing.body).toEqual({ detail: `Trigger ${id} not found` })
        expect((yield* send(c, HttpClientRequest.del(`/api/v1/triggers/${id}`))).status).toBe(404)
        const call = yield* send(
          c,
          json("POST", `/api/v1/triggers/${id}/calls`, { phone_number: "+48500100200" })
        )
        expect(call.status).toBe(404)
      }

      const invalid = yield* createTrigger(client, { name: "", initial_context: [], extra: true })
      expect(invalid.status).toBe(422)
      expect(
        (invalid.body as { detail: Array<{ loc: Array<string> }> }).detail.map((d) => d.loc.join("."))
      ).toEqual(expect.arrayContaining(["body.agent_id", "body.name", "body.initial_context", "body.extra"]))
    }).pipe(Effect.provide(server))
  )

  it.effect("lists triggers newest first, paginated, filtered by status, within the organization", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { client, agent } = yield* setup()
      const stranger = yield* rawClient((yield* organization()).apiKey)
      const ids: Array<string> = []
      for (let i = 0; i < 3; i++) {
        yield* TestClock.adjust("1 second")
        ids.push(
          ((yield* createTrigger(client, { agent_id: agent.public_id, name: `T${i}` })).body as Body)
            .trigger_id
        )
      }
      const first = yield* send(client, HttpClientRequest.get("/api/v1/triggers?limit=2"))
      expect(first.status).toBe(200)
      expect(first.body).toMatchObject({ total_count: 3, total_pages: 2, page: 1, limit: 2 })
      expect((first.body as Body).items.map((t: Body) => t.name)).toEqual(["T2", "T1"])
      const second = yield* send(client, HttpClientRequest.get("/api/v1/triggers?limit=2&page=2"))
      expect((second.body as Body).items.map((t: Body) => t.trigger_id)).toEqual([ids[0]])
      const past = yield* send(client, HttpClientRequest.get("/api/v1/triggers?page=9"))
      expect(past.status).toBe(200)
      expect(past.body).toMatchObject({ items: [], total_count: 3, page: 9 })

      expect((yield* send(client, HttpClientRequest.del(`/api/v1/triggers/${ids[1]}`))).status).toBe(204)
      const archived = yield* send(client, HttpClientRequest.get("/api/v1/triggers?status=archived"))
      expect((archived.body as Body).items.map((t: Body) => t.trigger_id)).toEqual([ids[1]])
      const active = yield* send(client, HttpClientRequest.get("/api/v1/triggers?status=active"))
      expect((active.body as Body).total_count).toBe(2)
      expect(
        ((yield* send(stranger, HttpClientRequest.get("/api/v1/triggers"))).body as Body).total_count
      ).toBe(0)

      const bad = yield* send(client, HttpClientRequest.get("/api/v1/triggers?page=0&limit=101&status=gone"))
      expect(bad.status).toBe(422)
      expect(
        (bad.body as { detail: Array<{ loc: Array<string> }> }).detail.map((d) => d.loc.join("."))
      ).toEqual(expect.arrayContaining(["query.page", "query.limit", "query.status"]))
    }).pipe(Effect.provide(server))
  )

  it.effect("places calls through a trigger, the request's initial_context laid over the trigger's", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization: org, client, agent } = yield* setup()
      const trigger = (yield* createTrigger(client, {
        agent_id: agent.public_id,
        name: "Reminders",
        initial_context: { clinic: "Centrum", lang: "pl", first_name: "Patient" }
      })).body as Body
      const placed = yield* send(
        client,
        json("POST", `/api/v1/triggers/${trigger.trigger_id}/calls`, {
          phone_number: "+48 500 100 200",
          initial_context: { first_name: "Ola", lang: "en" }
        })
      )
      expect(placed.status).toBe(200)
      const body = placed.body as Body
      expect(body).toEqual({
        workflow_run_id: expect.any(Number),
        workflow_id: agent.id,
        status: "queued",
        phone_number: "+48500100200",
        created_at: warsawNoon
      })
      const run = Option.getOrThrow(
        yield* (yield* RunStore.RunStore).find(org.id, RunId.RunId.make(body.workflow_run_id))
      )
      expect(run.trigger_id).toBe(trigger.trigger_id)
      expect(run.initial_context).toEqual({
        clinic: "Centrum",
        lang: "en",
        first_name: "Ola",
        phone_number: "+48500100200"
      })
      const handed = yield* (yield* MemoryTelephony.RecordedCalls).calls
      expect(handed.map((c) => c.run.initial_context)).toEqual([run.initial_context])

      // without a context of its own the call gets the trigger's
      const bare = yield* send(
        client,
        json("POST", `/api/v1/triggers/${trigger.trigger_id}/calls`, { phone_number: "+48500100201" })
      )
      const bareRun = Option.getOrThrow(
        yield* (yield* RunStore.RunStore).find(org.id, RunId.RunId.make((bare.body as Body).workflow_run_id))
      )
      expect(bareRun.initial_context).toEqual({
        clinic: "Centrum",
        lang: "pl",
        first_name: "Patient",
        phone_number: "+48500100201"
      })
    }).pipe(Effect.provide(server))
  )

  it.effect("a trigger call goes through the same gates; an archived trigger answers 409", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { client, agent } = yield* setup({ outbound_channels: 1 })
      const trigger = (yield* createTrigger(client, { agent_id: agent.public_id, name: "T" })).body as Body
      const place = (phone_number: string) =>
        send(client, json("POST", `/api/v1/triggers/${trigger.trigger_id}/calls`, { phone_number }))

      const invalid = yield* place("12345")
      expect(invalid.status).toBe(422)
      expect((invalid.body as Body).detail[0].loc).toEqual(["body", "phone_number"])

      yield* send(client, json("POST", "/api/v1/do-not-call", { phone_number: "+48500100200" }))
      const listed = yield* place("+48500100200")
      expect(listed.status).toBe(403)
      expect((listed.body as Body).detail).toMatch(/^do_not_call/)

      expect((yield* place("+48500100201")).status).toBe(200)
      const busy = yield* place("+48500100202")
      expect(busy.status).toBe(429)
      expect(busy.headers["retry-after"]).toBe("30")

      yield* setNow(warsawNight)
      const night = yield* place("+48500100202")
      expect(night.status).toBe(409)
      expect(night.headers["retry-after"]).toBe(String(9.5 * 3600))
      expect((night.body as Body).detail).toMatchObject({
        code: "outside_calling_hours",
        retry_at: "2026-02-11T07:00:00.000Z"
      })

      const archived = yield* send(client, HttpClientRequest.del(`/api/v1/triggers/${trigger.trigger_id}`))
      expect(archived.status).toBe(204)
      expect(archived.text).toBe("")
      expect(
        (yield* send(client, HttpClientRequest.del(`/api/v1/triggers/${trigger.trigger_id}`))).status
      ).toBe(204)
      const read = yield* send(client, HttpClientRequest.get(`/api/v1/triggers/${trigger.trigger_id}`))
      expect(read.body).toMatchObject({ trigger_id: trigger.trigger_id, status: "archived" })
      yield* setNow("2026-02-11T11:00:00.000Z")
      const refused = yield* place("+48500100203")
      expect(refused.status).toBe(409)
      expect(refused.body).toEqual({
        detail: `trigger_archived: trigger ${trigger.trigger_id} is archived and places no calls; create a new trigger`
      })
      expect(refused.headers["retry-after"]).toBeUndefined()
    }).pipe(Effect.provide(server))
  )
})
