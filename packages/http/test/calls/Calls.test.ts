import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { AgentIds, MemoryTelephony, RunId, RunStore } from "@voice-agent-platform/core"
import type { HttpClient } from "@effect/platform"
import { Effect, Option, TestClock } from "effect"
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"

// 12:00 in Warsaw (CET, UTC+1): inside calling hours.
const warsawNoon = "2026-02-10T11:00:00.000Z"
// 22:30 in Warsaw: outside calling hours until 08:00 the next morning (07:00Z), 9.5 hours away.
const warsawNight = "2026-02-10T21:30:00.000Z"
// 16:30 in New York at the same instant: a number there may still be called.
const newYorkNumber = "+1 212 736 5000"

const setNow = (iso: string) => TestClock.setTime(new Date(iso).getTime())

const script = {
  agent: { greeting: "Hello {{initial_context.first_name}}!", agent_goal: "Confirm the visit" }
}

interface CreatedAgent {
  readonly id: number
  readonly public_id: string
}

/** An organization with an agent, and a client holding its key. */
const setup = (options: { readonly outbound_channels?: number } = {}) =>
  Effect.gen(function* () {
    const owner = yield* organization(options)
    const client = yield* rawClient(owner.apiKey)
    const created = yield* send(client, json("POST", "/api/v1/agents/from-script", script))
    expect(created.status).toBe(200)
    return { ...owner, client, agent: created.body as CreatedAgent }
  })

const call = (client: HttpClient.HttpClient, path: string, body: unknown) =>
  send(client, json("POST", `/api/v1${path}`, body))

type Body = Record<string, any>

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("placing calls over HTTP, %s storage", (_, server) => {
  it.effect("queues a run, hands it to telephony and answers its id, agent, status, number and time", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization: org, client, agent } = yield* setup()
      const placed = yield* call(client, `/agents/${agent.public_id}/calls`, {
        phone_number: "+48 500-100-200",
        initial_context: { first_name: "Ola" }
      })
      expect(placed.status).toBe(200)
      const body = placed.body as Body
      expect(body).toEqual({
        workflow_run_id: expect.any(Number),
        workflow_id: agent.id,
        status: "queued",
        phone_number: "+48500100200",
        created_at: warsawNoon
      })
      expect(placed.headers["x-request-id"]).toBeDefined()

      const run = yield* (yield* RunStore.RunStore).find(org.id, RunId.RunId.make(body.workflow_run_id))
      expect(Option.getOrThrow(run)).toMatchObject({
        workflow_id: agent.id,
        status: "queued",
        mode: "phone",
        phone_number: "+48500100200",
        initial_context: { first_name: "Ola", phone_number: "+48500100200" },
        trigger_id: null
      })
      const handed = yield* (yield* MemoryTelephony.RecordedCalls).calls
      expect(handed.map((c) => c.run.workflow_run_id)).toEqual([body.workflow_run_id])

      // the agent's number addresses the same agent; null optional fields are the same as absent ones
      const byNumber = yield* call(client, `/agents/${agent.id}/calls`, {
        phone_number: "+48500100201",
        initial_context: null,
        from_phone_number_id: null
      })
      expect(byNumber.status).toBe(200)
      expect((byNumber.body as Body).workflow_id).toBe(agent.id)
    }).pipe(Effect.provide(server))
  )

  it.effect("answers 403 for a number on the Do not call list, in any format", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { client, agent } = yield* setup()
      expect((yield* call(client, "/do-not-call", { phone_number: "+48500100200" })).status).toBe(200)
      const refused = yield* call(client, `/agents/${agent.public_id}/calls`, {
        phone_number: "+48 (500) 100 200"
      })
      expect(refused.status).toBe(403)
      expect(refused.body).toEqual({
        detail: "do_not_call: +48500100200 is on the organization's Do not call list"
      })
      expect((refused.body as Body).detail.startsWith("do_not_call")).toBe(true)
      expect(refused.headers["retry-after"]).toBeUndefined()
    }).pipe(Effect.provide(server))
  )

  it.effect("answers 409 outside calling hours with Retry-After and detail.retry_at", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNight)
      const { organization: org, client, agent } = yield* setup()
      const refused = yield* call(client, `/agents/${agent.public_id}/calls`, {
        phone_number: "+48500100200"
      })
      expect(refused.status).toBe(409)
      expect(refused.headers["retry-after"]).toBe(String(9.5 * 3600))
      expect(refused.body).toEqual({
        detail: {
          code: "outside_calling_hours",
          message: expect.stringContaining("08:00 and 21:00"),
          retry_at: "2026-02-11T07:00:00.000Z"
        }
      })
      // a refused call writes nothing
      const runs = yield* (yield* RunStore.RunStore).list(
        org.id,
        AgentIds.AgentId.make(agent.id),
        {},
        { page: 1, limit: 50 }
      )
      expect(runs.total_count).toBe(0)

      // Retry-After is rounded up to whole seconds
      yield* setNow("2026-02-11T06:59:58.500Z")
      const almost = yield* call(client, `/agents/${agent.public_id}/calls`, { phone_number: "+48500100200" })
      expect(almost.status).toBe(409)
      expect(almost.headers["retry-after"]).toBe("2")
      expect((almost.body as Body).detail.retry_at).toBe("2026-02-11T07:00:00.000Z")

      yield* setNow("2026-02-11T07:00:00.000Z")
      expect(
        (yield* call(client, `/agents/${agent.public_id}/calls`, { phone_number: "+48500100200" })).status
      ).toBe(200)
    }).pipe(Effect.provide(server))
  )

  it.effect("answers 429 with Retry-After when every channel is busy", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { client, agent } = yield* setup({ outbound_channels: 1 })
      const first = yield* call(client, `/agents/${agent.public_id}/calls`, { phone_number: "+48500100200" })
      expect(first.status).toBe(200)
      const busy = yield* call(client, `/agents/${agent.public_id}/calls`, { phone_number: "+48500100201" })
      expect(busy.status).toBe(429)
      expect(busy.headers["retry-after"]).toBe("30")
      expect(busy.body).toEqual({
        detail: "All 1 outbound channels of the organization are busy; retry after 30 seconds"
      })
    }).pipe(Effect.provide(server))
  )

  it.effect("checks the gates in order: Do not call (403), calling hours (409), channels (429)", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNight)
      const { client, agent } = yield* setup({ outbound_channels: 1 })
      const place = (phone_number: string) =>
        call(client, `/agents/${agent.public_id}/calls`, { phone_number })
      // it is afternoon in New York: this call takes the only channel
      expect((yield* place(newYorkNumber)).status).toBe(200)
      expect((yield* call(client, "/do-not-call", { phone_number: "+48500100200" })).status).toBe(200)

      const listedAtNightChannelsFull = yield* place("+48500100200")
      expect(listedAtNightChannelsFull.status).toBe(403)
      expect((listedAtNightChannelsFull.body as Body).detail).toMatch(/^do_not_call/)

      const nightChannelsFull = yield* place("+48500100201")
      expect(nightChannelsFull.status).toBe(409)
      expect((nightChannelsFull.body as Body).detail.code).toBe("outside_calling_hours")

      const dayChannelsFull = yield* place("+1 212 736 5001")
      expect(dayChannelsFull.status).toBe(429)
      // no live call says when it ends: the documented 30 seconds
      expect(dayChannelsFull.headers["retry-after"]).toBe("30")
    }).pipe(Effect.provide(server))
  )

  it.effect("accepts exactly as many simultaneous calls as the organization has channels", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization: org, client, agent } = yield* setup({ outbound_channels: 2 })
      const results = yield* Effect.all(
        Array.from({ length: 10 }, (_, i) =>
          call(client, `/agents/${agent.public_id}/calls`, { phone_number: `+4850010030${i}` })
        ),
        { concurrency: "unbounded" }
      )
      const accepted = results.filter((r) => r.status === 200)
      const refused = results.filter((r) => r.status === 429)
      expect(accepted).toHaveLength(2)
      expect(refused).toHaveLength(8)
      for (const r of refused) {
        expect(Number(r.headers["retry-after"])).toBeGreaterThanOrEqual(1)
        expect(Number(r.headers["retry-after"])).toBeLessThanOrEqual(300)
      }
      const runs = yield* (yield* RunStore.RunStore).list(
        org.id,
        AgentIds.AgentId.make(agent.id),
        {},
        { page: 1, limit: 50 }
      )
      expect(runs.total_count).toBe(2)
      expect((yield* (yield* MemoryTelephony.RecordedCalls).calls).length).toBe(2)
    }).pipe(Effect.provide(server))
  )

  it.effect("answers 422 at body.phone_number for an invalid or missing number, and for unknown fields", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { client, agent } = yield* setup()
      for (const phone_number of ["12345", "500100200", "+48 123", "call me"]) {
        const invalid = yield* call(client, `/agents/${agent.public_id}/calls`, { phone_number })
        expect(invalid.status).toBe(422)
        expect(invalid.body).toEqual({
          detail: [
            {
              loc: ["body", "phone_number"],
              msg: "phone_number must be a valid phone number in international format, e.g. +48500000486",
              type: "value_error.phone_number"
            }
          ]
        })
      }
      const missing = yield* call(client, `/agents/${agent.public_id}/calls`, {
        initial_context: "not an object",
        extra: 1
      })
      expect(missing.status).toBe(422)
      const locs = (missing.body as { detail: Array<{ loc: Array<string> }> }).detail.map((d) =>
        d.loc.join(".")
      )
      expect(locs).toEqual(
        expect.arrayContaining(["body.phone_number", "body.initial_context", "body.extra"])
      )
    }).pipe(Effect.provide(server))
  )

  it.effect(
    "answers 404 for an unknown or foreign agent or caller number, and 409 for an archived agent",
    () =>
      Effect.gen(function* () {
        yield* setNow(warsawNoon)
        const { client, agent } = yield* setup()
        const stranger = yield* rawClient((yield* organization()).apiKey)
        for (const ref of ["agent_00000000000000000000", "999999", "not-an-id"]) {
          const unknown = yield* call(client, `/agents/${ref}/calls`, { phone_number: "+48500100200" })
          expect(unknown.status).toBe(404)
          expect(unknown.body).toEqual({ detail: `Agent ${ref} not found` })
        }
        const foreign = yield* call(stranger, `/agents/${agent.public_id}/calls`, {
          phone_number: "+48500100200"
        })
        expect(foreign.status).toBe(404)
        expect(foreign.body).toEqual({ detail: `Agent ${agent.public_id} not found` })
        const fromUnknown = yield* call(client, `/agents/${agent.public_id}/calls`, {
          phone_number: "+48500100200",
          from_phone_number_id: 4242
        })
        expect(fromUnknown.status).toBe(404)

        const archive = yield* send(
          client,
          json("PATCH", `/api/v1/agents/${agent.public_id}`, { status: "archived" })
        )
        expect(archive.status).toBe(200)
        const archived = yield* call(client, `/agents/${agent.public_id}/calls`, {
          phone_number: "+48500100200"
        })
        expect(archived.status).toBe(409)
        expect(archived.body).toEqual({
          detail: `agent_archived: agent ${agent.public_id} is archived; set its status to active to place calls`
        })
        expect(archived.headers["retry-after"]).toBeUndefined()
      }).pipe(Effect.provide(server))
  )

  it.effect("answers 503 when the voice runtime does not take the call, and frees the channel", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { client, agent } = yield* setup({ outbound_channels: 1 })
      const telephony = yield* MemoryTelephony.RecordedCalls
      yield* telephony.setAvailable(false)
      const down = yield* call(client, `/agents/${agent.public_id}/calls`, { phone_number: "+48500100200" })
      expect(down.status).toBe(503)
      expect((down.body as Body).detail).toMatch(/^telephony_unavailable/)
      yield* telephony.setAvailable(true)
      expect(
        (yield* call(client, `/agents/${agent.public_id}/calls`, { phone_number: "+48500100200" })).status
      ).toBe(200)
    }).pipe(Effect.provide(server))
  )

  it.effect("the legacy address /workflow/{workflow_id}/calls behaves identically", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization: org, client, agent } = yield* setup({ outbound_channels: 1 })
      const legacy = yield* call(client, `/workflow/${agent.id}/calls`, {
        phone_number: "+48 500 100 200",
        initial_context: { first_name: "Ola" }
      })
      expect(legacy.status).toBe(200)
      const body = legacy.body as Body
      expect(body).toEqual({
        workflow_run_id: expect.any(Number),
        workflow_id: agent.id,
        status: "queued",
        phone_number: "+48500100200",
        created_at: warsawNoon
      })
      const run = yield* (yield* RunStore.RunStore).find(org.id, RunId.RunId.make(body.workflow_run_id))
      expect(Option.getOrThrow(run).initial_context).toEqual({
        first_name: "Ola",
        phone_number: "+48500100200"
      })

      const viaNew = yield* call(client, `/agents/${agent.id}/calls`, { phone_number: "+48500100201" })
      const viaLegacy = yield* call(client, `/workflow/${agent.id}/calls`, { phone_number: "+48500100201" })
      expect(viaLegacy.status).toBe(429)
      expect(viaLegacy.body).toEqual(viaNew.body)
      expect(viaLegacy.headers["retry-after"]).toBe(viaNew.headers["retry-after"])

      const invalid = yield* call(client, `/workflow/${agent.id}/calls`, { phone_number: "12345" })
      expect(invalid.status).toBe(422)
      expect((invalid.body as Body).detail[0].loc).toEqual(["body", "phone_number"])
      expect((yield* call(client, "/workflow/999999/calls", { phone_number: "+48500100201" })).status).toBe(
        404
      )
      yield* setNow(warsawNight)
      const night = yield* call(client, `/workflow/${agent.id}/calls`, { phone_number: "+48500100201" })
      expect(night.status).toBe(409)
      expect(night.headers["retry-after"]).toBe(String(9.5 * 3600))
    }).pipe(Effect.provide(server))
  )

  it.effect("answers 401 before anything else", () =>
    Effect.gen(function* () {
      const anonymous = yield* rawClient("")
      for (const path of ["/agents/1/calls", "/workflow/1/calls", "/triggers/trg_x/calls"]) {
        const refused = yield* call(anonymous, path, { phone_number: "nonsense" })
        expect(refused.status).toBe(401)
        expect(refused.body).toEqual({ detail: "Invalid API key" })
      }
    }).pipe(Effect.provide(server))
  )

  it.effect("documents every refusal, both 409 bodies, and the legacy address as deprecated", () =>
    Effect.gen(function* () {
      const { client } = yield* setup()
      const doc = (yield* send(client, HttpClientRequest.get("/api/v1/public-openapi.json"))).body as Body
      const operations = {
        agent: doc.paths["/api/v1/agents/{agent_id}/calls"].post,
        trigger: doc.paths["/api/v1/triggers/{trigger_id}/calls"].post,
        legacy: doc.paths["/api/v1/workflow/{workflow_id}/calls"].post
      }
      for (const operation of Object.values(operations)) {
        expect(Object.keys(operation.responses).sort()).toEqual(
          ["200", "401", "403", "404", "409", "422", "429", "503"].sort()
        )
        const conflict = JSON.stringify(operation.responses["409"].content["application/json"].schema)
        expect(conflict).toContain("anyOf")
        expect(conflict).toContain("OutsideCallingHoursResponse")
        expect(conflict).toContain("Conflict")
        expect(operation.responses["409"].headers["Retry-After"].schema.type).toBe("integer")
        expect(operation.responses["429"].headers["Retry-After"].schema.type).toBe("integer")
      }
      expect(operations.legacy.deprecated).toBe(true)
      expect(operations.agent.deprecated).toBeUndefined()
      const calling = doc.components.schemas.OutsideCallingHoursResponse
      expect(JSON.stringify(calling)).toContain("retry_at")
    }).pipe(Effect.provide(server))
  )
})
