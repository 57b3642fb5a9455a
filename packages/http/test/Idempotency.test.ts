import type { HttpClient } from "@effect/platform"
import { HttpClientRequest, HttpServerResponse } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import {
  AgentIds,
  ChannelStore,
  IdempotencyKey,
  IdempotencyRecord,
  IdempotencyStore,
  InMemory,
  MemoryTelephony,
  Money,
  Organizations,
  PhoneNumbers,
  RequestFingerprint,
  RunId,
  RunStore
} from "@voice-agent-platform/core"
import type { Organization } from "@voice-agent-platform/core"
import { Effect, Fiber, Option, Schema, TestClock } from "effect"
import { Conflict } from "@voice-agent-platform/contract/errors/ApiErrors.js"
import * as Idempotent from "../src/idempotency/Idempotent.js"
import { CurrentOrganization } from "../src/middleware/Authentication.js"
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "./support/TestServer.js"

// 12:00 in Warsaw (CET, UTC+1): inside calling hours.
const warsawNoon = "2026-02-10T11:00:00.000Z"
// 22:30 in Warsaw: outside calling hours until 08:00 the next morning (07:00Z).
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

/** A POST with a JSON body and, when given, an `Idempotency-Key`. */
const post = (client: HttpClient.HttpClient, path: string, body: unknown, key?: string) =>
  send(
    client,
    key === undefined
      ? json("POST", `/api/v1${path}`, body)
      : json("POST", `/api/v1${path}`, body).pipe(HttpClientRequest.setHeader("Idempotency-Key", key))
  )

/** The runs of the agent, and the calls handed to telephony (of every organization of the server). */
const placed = (organizationId: Organization.OrganizationId, agentId: number) =>
  Effect.gen(function* () {
    const runs = yield* (yield* RunStore.RunStore).list(
      organizationId,
      AgentIds.AgentId.make(agentId),
      {},
      { page: 1, limit: 50 }
    )
    const handed = yield* (yield* MemoryTelephony.RecordedCalls).calls
    return {
      runs: runs.items.map((r) => r.workflow_run_id),
      handed: handed.filter((c) => c.run.workflow_id === agentId).map((c) => c.run.workflow_run_id)
    }
  })

const replayed = (response: { headers: Readonly<Record<string, string>> }) =>
  response.headers["idempotency-replayed"]

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("Idempotency-Key over HTTP, %s storage", (_, server) => {
  it.effect("a retried call request with the same key places one call and gets the first answer again", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization: org, client, agent } = yield* setup()
      const path = `/agents/${agent.public_id}/calls`
      const body = {
        phone_number: "+48 500 100 200",
        initial_context: { first_name: "Ola", visit: "Monday" }
      }
      const first = yield* post(client, path, body, "retry-me-1")
      expect(first.status).toBe(200)
      expect(first.body).toEqual({
        workflow_run_id: expect.any(Number),
        workflow_id: agent.id,
        status: "queued",
        phone_number: "+48500100200",
        created_at: warsawNoon
      })
      expect(replayed(first)).toBeUndefined()

      yield* TestClock.adjust("5 seconds")
      const again = yield* post(client, path, body, "retry-me-1")
      expect(again.status).toBe(200)
      expect(again.body).toEqual(first.body)
      expect(replayed(again)).toBe("true")
      expect(again.headers["x-request-id"]).toBeDefined()
      expect(again.headers["x-request-id"]).not.toBe(first.headers["x-request-id"])

      // the same body with its fields in another order is the same request
      const reordered = yield* post(
        client,
        path,
        { initial_context: { visit: "Monday", first_name: "Ola" }, phone_number: "+48 500 100 200" },
        "retry-me-1"
      )
      expect(reordered.status).toBe(200)
      expect(reordered.body).toEqual(first.body)
      expect(replayed(reordered)).toBe("true")

      const once = yield* placed(org.id, agent.id)
      expect(once.runs).toEqual([(first.body as Body).workflow_run_id])
      expect(once.handed).toEqual([(first.body as Body).workflow_run_id])

      // without a key nothing changes: every request places a call
      expect((yield* post(client, path, body)).status).toBe(200)
      expect((yield* post(client, path, body)).status).toBe(200)
      expect((yield* placed(org.id, agent.id)).runs).toHaveLength(3)
    }).pipe(Effect.provide(server))
  )

  it.effect("works the same on the trigger and legacy addresses", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization: org, client, agent } = yield* setup()
      const trigger = (yield* post(client, "/triggers", { agent_id: agent.public_id, name: "Reminders" }))
        .body as Body
      const body = { phone_number: "+48500100200" }
      for (const [path, key] of [
        [`/triggers/${trigger.trigger_id}/calls`, "trigger-key"],
        [`/workflow/${agent.id}/calls`, "legacy-key"]
      ] as const) {
        const first = yield* post(client, path, body, key)
        expect(first.status).toBe(200)
        const again = yield* post(client, path, body, key)
        expect(again.status).toBe(200)
        expect(again.body).toEqual(first.body)
        expect(replayed(again)).toBe("true")
      }
      const calls = yield* placed(org.id, agent.id)
      expect(calls.runs).toHaveLength(2)
      expect(calls.handed).toHaveLength(2)
    }).pipe(Effect.provide(server))
  )

  it.effect("the same key with another body, path or address is 422 at the header, and places nothing", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization: org, client, agent } = yield* setup()
      const first = yield* post(
        client,
        `/agents/${agent.public_id}/calls`,
        { phone_number: "+48500100200" },
        "k1"
      )
      expect(first.status).toBe(200)
      const reused = {
        detail: [
          {
            loc: ["header", "Idempotency-Key"],
            msg: "This Idempotency-Key was already used with another request (another body or path); use a new key for a new request",
            type: "value_error.idempotency_key_reused"
          }
        ]
      }
      for (const [path, body] of [
        [`/agents/${agent.public_id}/calls`, { phone_number: "+48500100201" }],
        [`/agents/${agent.public_id}/calls`, { phone_number: "+48500100200", initial_context: null }],
        // the same agent by its number is another path, the legacy address another route
        [`/agents/${agent.id}/calls`, { phone_number: "+48500100200" }],
        [`/workflow/${agent.id}/calls`, { phone_number: "+48500100200" }]
      ] as const) {
        const other = yield* post(client, path, body, "k1")
        expect(other.status).toBe(422)
        expect(other.body).toEqual(reused)
        expect(replayed(other)).toBeUndefined()
      }
      expect((yield* placed(org.id, agent.id)).runs).toHaveLength(1)
      // the key still answers its own request
      const again = yield* post(
        client,
        `/agents/${agent.public_id}/calls`,
        { phone_number: "+48500100200" },
        "k1"
      )
      expect(again.body).toEqual(first.body)
      expect(replayed(again)).toBe("true")
    }).pipe(Effect.provide(server))
  )

  it.effect("a malformed key is 422 at the header, listed with the body's own failures", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization: org, client, agent } = yield* setup()
      const issue = {
        loc: ["header", "Idempotency-Key"],
        msg: "Idempotency-Key must be 1 to 255 printable ASCII characters, without leading or trailing spaces",
        type: "value_error"
      }
      for (const key of ["k".repeat(256), "tab\tinside"]) {
        const bad = yield* post(
          client,
          `/agents/${agent.public_id}/calls`,
          { phone_number: "+48500100200" },
          key
        )
        expect(bad.status).toBe(422)
        expect(bad.body).toEqual({ detail: [issue] })
      }
      const both = yield* post(client, `/agents/${agent.public_id}/calls`, { extra: 1 }, "k".repeat(256))
      expect(both.status).toBe(422)
      const locs = (both.body as Body).detail.map((d: Body) => d.loc.join("."))
      expect(locs).toEqual(
        expect.arrayContaining(["header.Idempotency-Key", "body.phone_number", "body.extra"])
      )
      expect((yield* placed(org.id, agent.id)).runs).toHaveLength(0)
      // 255 characters is a key
      expect(
        (yield* post(
          client,
          `/agents/${agent.public_id}/calls`,
          { phone_number: "+48500100200" },
          "k".repeat(255)
        )).status
      ).toBe(200)
    }).pipe(Effect.provide(server))
  )

  it.effect(
    "of 5 simultaneous requests with one key exactly one places a call; the others wait or replay",
    () =>
      Effect.gen(function* () {
        yield* setNow(warsawNoon)
        const { organization: org, client, agent } = yield* setup()
        const results = yield* Effect.all(
          Array.from({ length: 5 }, () =>
            post(client, `/agents/${agent.public_id}/calls`, { phone_number: "+48500100200" }, "burst")
          ),
          { concurrency: "unbounded" }
        )
        const ran = results.filter((r) => r.status === 200 && replayed(r) === undefined)
        expect(ran).toHaveLength(1)
        for (const r of results) {
          if (r === ran[0]) continue
          if (r.status === 200) {
            expect(replayed(r)).toBe("true")
            expect(r.body).toEqual(ran[0]!.body)
          } else {
            expect(r.status).toBe(409)
            expect(r.body).toEqual({
              detail:
                "idempotency_key_in_use: a request with this Idempotency-Key is still running; retry when it has answered"
            })
          }
        }
        const calls = yield* placed(org.id, agent.id)
        expect(calls.runs).toHaveLength(1)
        expect(calls.handed).toHaveLength(1)
      }).pipe(Effect.provide(server))
  )

  it.effect("a key whose first request is still running is 409; after its 60 s lease a retry runs", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization: org, client, agent } = yield* setup()
      const body = { phone_number: "+48500100200" }
      // a first request that claimed the key and never answered (its server died mid-way)
      const claim = {
        organization_id: org.id,
        key: IdempotencyKey.IdempotencyKey.make("stuck"),
        fingerprint: yield* RequestFingerprint.fingerprint({
          method: "POST",
          route: "/agents/:agent_id/calls",
          path: { agent_id: agent.public_id },
          body
        }),
        token: "a-dead-request"
      }
      const store = yield* IdempotencyStore.IdempotencyStore
      const now = new Date(warsawNoon)
      expect((yield* store.begin(claim, now, IdempotencyRecord.defaultTtl))._tag).toBe("Claimed")

      const running = yield* post(client, `/agents/${agent.public_id}/calls`, body, "stuck")
      expect(running.status).toBe(409)
      expect((running.body as Body).detail).toMatch(/^idempotency_key_in_use/)
      // another body is refused as such, even while the first runs
      expect(
        (yield* post(client, `/agents/${agent.public_id}/calls`, { phone_number: "+48500100201" }, "stuck"))
          .status
      ).toBe(422)
      yield* TestClock.adjust("59 seconds")
      expect((yield* post(client, `/agents/${agent.public_id}/calls`, body, "stuck")).status).toBe(409)
      expect((yield* placed(org.id, agent.id)).runs).toHaveLength(0)

      yield* TestClock.adjust("1 second")
      const retried = yield* post(client, `/agents/${agent.public_id}/calls`, body, "stuck")
      expect(retried.status).toBe(200)
      expect(replayed(retried)).toBeUndefined()
      // the dead request's late answer would no longer count
      expect(yield* store.complete(claim, { status: 200, body: {} })).toBe(false)
      const again = yield* post(client, `/agents/${agent.public_id}/calls`, body, "stuck")
      expect(again.body).toEqual(retried.body)
      expect((yield* placed(org.id, agent.id)).runs).toHaveLength(1)
    }).pipe(Effect.provide(server))
  )

  it.effect("a 429 is not kept: once a channel frees, the same key places the call", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization: org, client, agent } = yield* setup({ outbound_channels: 1 })
      const holder = yield* post(client, `/agents/${agent.public_id}/calls`, { phone_number: "+48500100200" })
      expect(holder.status).toBe(200)
      const body = { phone_number: "+48500100201" }
      for (let attempt = 0; attempt < 2; attempt++) {
        const busy = yield* post(client, `/agents/${agent.public_id}/calls`, body, "when-free")
        expect(busy.status).toBe(429)
        expect(busy.headers["retry-after"]).toBe("30")
        expect(replayed(busy)).toBeUndefined()
      }
      // the first call ends: its channel is free again
      const run = yield* (yield* RunStore.RunStore).find(
        org.id,
        RunId.RunId.make((holder.body as Body).workflow_run_id)
      )
      const reservation = Option.getOrThrow(run).channel_reservation_id
      expect(yield* (yield* ChannelStore.ChannelStore).release(org.id, reservation!)).toBe(true)

      const accepted = yield* post(client, `/agents/${agent.public_id}/calls`, body, "when-free")
      expect(accepted.status).toBe(200)
      expect(replayed(accepted)).toBeUndefined()
      expect((accepted.body as Body).phone_number).toBe("+48500100201")
      const again = yield* post(client, `/agents/${agent.public_id}/calls`, body, "when-free")
      expect(again.status).toBe(200)
      expect(again.body).toEqual(accepted.body)
      expect(replayed(again)).toBe("true")
      const calls = yield* placed(org.id, agent.id)
      expect(calls.runs).toHaveLength(2)
      expect(calls.handed).toHaveLength(2)
    }).pipe(Effect.provide(server))
  )

  it.effect("a 409 outside calling hours and a 503 are not kept either; a 403 is", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNight)
      const { organization: org, client, agent } = yield* setup()
      const path = `/agents/${agent.public_id}/calls`
      const night = yield* post(client, path, { phone_number: "+48500100200" }, "at-night")
      expect(night.status).toBe(409)
      // 22:30 in Warsaw: the window opens at 08:00, 9.5 hours later
      expect(night.headers["retry-after"]).toBe(String(9.5 * 3600))
      yield* setNow("2026-02-11T07:00:00.000Z")
      const morning = yield* post(client, path, { phone_number: "+48500100200" }, "at-night")
      expect(morning.status).toBe(200)
      expect(replayed(morning)).toBeUndefined()

      const telephony = yield* MemoryTelephony.RecordedCalls
      yield* telephony.setAvailable(false)
      expect((yield* post(client, path, { phone_number: "+48500100201" }, "runtime-down")).status).toBe(503)
      yield* telephony.setAvailable(true)
      const up = yield* post(client, path, { phone_number: "+48500100201" }, "runtime-down")
      expect(up.status).toBe(200)
      expect(replayed(up)).toBeUndefined()

      // a refusal a retry would only repeat is kept: even after the number leaves the list
      expect((yield* post(client, "/do-not-call", { phone_number: "+48500100202" })).status).toBe(200)
      const listed = yield* post(client, path, { phone_number: "+48500100202" }, "listed")
      expect(listed.status).toBe(403)
      const removed = yield* send(client, HttpClientRequest.del("/api/v1/do-not-call/%2B48500100202"))
      expect(removed.status).toBe(204)
      const stillRefused = yield* post(client, path, { phone_number: "+48500100202" }, "listed")
      expect(stillRefused.status).toBe(403)
      expect(stillRefused.body).toEqual(listed.body)
      expect(replayed(stillRefused)).toBe("true")
      expect((yield* placed(org.id, agent.id)).runs).toHaveLength(3)
    }).pipe(Effect.provide(server))
  )

  it.effect("keys are per organization: another organization's same key is its own", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const a = yield* setup()
      const b = yield* setup()
      const first = yield* post(
        a.client,
        `/agents/${a.agent.public_id}/calls`,
        { phone_number: "+48500100200" },
        "shared"
      )
      const other = yield* post(
        b.client,
        `/agents/${b.agent.public_id}/calls`,
        { phone_number: "+48500100201" },
        "shared"
      )
      expect(first.status).toBe(200)
      expect(other.status).toBe(200)
      expect(replayed(other)).toBeUndefined()
      expect((other.body as Body).workflow_id).toBe(b.agent.id)
      expect((yield* placed(a.organization.id, a.agent.id)).runs).toHaveLength(1)
      expect((yield* placed(b.organization.id, b.agent.id)).runs).toHaveLength(1)
    }).pipe(Effect.provide(server))
  )

  it.effect("a key is kept for 24 hours, then forgotten", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization: org, client, agent } = yield* setup()
      const path = `/agents/${agent.public_id}/calls`
      const body = { phone_number: "+48500100200" }
      const first = yield* post(client, path, body, "a-day")
      expect(first.status).toBe(200)
      yield* TestClock.adjust("86399 seconds")
      const lastSecond = yield* post(client, path, body, "a-day")
      expect(lastSecond.body).toEqual(first.body)
      expect(replayed(lastSecond)).toBe("true")
      yield* TestClock.adjust("1 second")
      const nextDay = yield* post(client, path, body, "a-day")
      expect(nextDay.status).toBe(200)
      expect(replayed(nextDay)).toBeUndefined()
      expect((nextDay.body as Body).workflow_run_id).not.toBe((first.body as Body).workflow_run_id)
      expect((nextDay.body as Body).created_at).toBe("2026-02-11T11:00:00.000Z")
      expect((yield* placed(org.id, agent.id)).runs).toHaveLength(2)
    }).pipe(Effect.provide(server))
  )

  it.effect(
    "deleting the call erases the kept answer: a repeat answers 404 without the number, places nothing",
    () =>
      Effect.gen(function* () {
        yield* setNow(warsawNoon)
        const { organization: org, client, agent } = yield* setup()
        const path = `/agents/${agent.public_id}/calls`
        const body = { phone_number: "+48 500 100 299", initial_context: { first_name: "Ola" } }
        const first = yield* post(client, path, body, "erase-me")
        expect(first.status).toBe(200)
        const runId = (first.body as Body).workflow_run_id as number
        // the call ends, then the organization erases it
        yield* (yield* RunStore.RunStore).update(org.id, RunId.RunId.make(runId), {
          status: "completed",
          ended_at: new Date(warsawNoon)
        })
        const deleted = yield* send(
          client,
          HttpClientRequest.del(`/api/v1/agents/${agent.public_id}/conversations/${runId}`)
        )
        expect(deleted.status).toBe(204)

        const erased = {
          detail: `Run ${runId} was deleted; the answer kept for this Idempotency-Key was erased with it`
        }
        const again = yield* post(client, path, body, "erase-me")
        expect(again.status).toBe(404)
        expect(again.body).toEqual(erased)
        expect(replayed(again)).toBe("true")
        expect(again.text).not.toContain("500100299")
        expect(again.text).not.toContain("Ola")
        // another body under the key gets the same: the record no longer knows what the first one carried
        const other = yield* post(client, path, { phone_number: "+48500100200" }, "erase-me")
        expect(other.status).toBe(404)
        expect(other.body).toEqual(erased)
        expect((yield* placed(org.id, agent.id)).runs).toEqual([])
        // nothing of the call is left in the stored record
        const store = yield* IdempotencyStore.IdempotencyStore
        const stored = yield* store.begin(
          {
            organization_id: org.id,
            key: IdempotencyKey.IdempotencyKey.make("erase-me"),
            fingerprint: "probe",
            token: "probe"
          },
          new Date(warsawNoon),
          IdempotencyRecord.defaultTtl
        )
        expect(JSON.stringify(stored)).not.toMatch(/500100299|Ola/)
      }).pipe(Effect.provide(server))
  )

  it.effect("a repeated number order takes one number and charges once", () =>
    Effect.gen(function* () {
      const { organization: org, apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const organizations = yield* Organizations.Organizations
      yield* organizations.topUp(org.id, Money.MinorUnits.make(10_000))
      const numbers = yield* PhoneNumbers.PhoneNumbers
      yield* numbers.addToInventory({ number: "+48600100200", number_type: "mobile" })
      yield* numbers.addToInventory({ number: "+48600100201", number_type: "mobile" })
      const balance = Effect.map(
        send(client, HttpClientRequest.get("/api/v1/phone-numbers/polish/quote?number_type=mobile")),
        (r) => (r.body as Body).balance_pln as number
      )

      const first = yield* post(client, "/phone-numbers/polish/order", { number_type: "mobile" }, "order-1")
      expect(first.status).toBe(200)
      expect((first.body as Body).charged_pln).toBe(19.99)
      const again = yield* post(client, "/phone-numbers/polish/order", { number_type: "mobile" }, "order-1")
      expect(again.status).toBe(200)
      expect(again.body).toEqual(first.body)
      expect(replayed(again)).toBe("true")
      expect(yield* balance).toBe(80.01)
      const held = yield* send(client, HttpClientRequest.get("/api/v1/phone-numbers"))
      expect((held.body as Body).total_count).toBe(1)

      // 409 no_inventory is not kept: once a number is there, the same key orders it
      const other = yield* post(client, "/phone-numbers/polish/order", { number_type: "landline" }, "order-2")
      expect(other.status).toBe(409)
      yield* numbers.addToInventory({ number: "+48221234567", number_type: "landline" })
      const landline = yield* post(
        client,
        "/phone-numbers/polish/order",
        { number_type: "landline" },
        "order-2"
      )
      expect(landline.status).toBe(200)
      expect(replayed(landline)).toBeUndefined()
      expect(yield* balance).toBe(21.02)

      // 402 is a final answer: kept, so a top-up needs a new key
      yield* numbers.addToInventory({ number: "+48221234568", number_type: "landline" })
      const short = yield* post(client, "/phone-numbers/polish/order", { number_type: "landline" }, "order-3")
      expect(short.status).toBe(402)
      yield* organizations.topUp(org.id, Money.MinorUnits.make(10_000))
      const stillShort = yield* post(
        client,
        "/phone-numbers/polish/order",
        { number_type: "landline" },
        "order-3"
      )
      expect(stillShort.status).toBe(402)
      expect(stillShort.body).toEqual(short.body)
      expect(replayed(stillShort)).toBe("true")
      const fresh = yield* post(client, "/phone-numbers/polish/order", { number_type: "landline" }, "order-4")
      expect(fresh.status).toBe(200)
      expect((fresh.body as Body).phone_number.number).toBe("+48221234568")
    }).pipe(Effect.provide(server))
  )

  it.effect("documents the header on every idempotent endpoint, and the replay header on kept answers", () =>
    Effect.gen(function* () {
      const { client } = yield* setup()
      const doc = (yield* send(client, HttpClientRequest.get("/api/v1/public-openapi.json"))).body as Body
      const operations = [
        doc.paths["/api/v1/agents/{agent_id}/calls"].post,
        doc.paths["/api/v1/triggers/{trigger_id}/calls"].post,
        doc.paths["/api/v1/workflow/{workflow_id}/calls"].post,
        doc.paths["/api/v1/phone-numbers/polish/order"].post
      ]
      for (const operation of operations) {
        const header = (operation.parameters as Array<Body>).find((p) => p.in === "header")!
        expect(header).toMatchObject({ name: "Idempotency-Key", required: false })
        expect(header.schema).toMatchObject({ type: "string", minLength: 1, maxLength: 255 })
        expect(header.description).toContain("24 hours")
        expect(operation.responses["200"].headers["Idempotency-Replayed"]).toBeDefined()
        expect(operation.responses["404"].headers["Idempotency-Replayed"]).toBeDefined()
        expect(operation.responses["401"].headers?.["Idempotency-Replayed"]).toBeUndefined()
        expect(operation.responses["409"].headers?.["Idempotency-Replayed"]).toBeUndefined()
        expect(operation.responses["409"].description).toContain("Idempotency-Key is still running")
        expect(header.description).toContain('422 at `["header","Idempotency-Key"]`')
      }
      // other POSTs take no key
      expect(JSON.stringify(doc.paths["/api/v1/do-not-call"])).not.toContain("Idempotency-Key")
    }).pipe(Effect.provide(server))
  )
})

describe("Idempotent.run", () => {
  /** Runs the test as an organization of a fresh in-memory engine, as the authentication would. */
  const withOrganization = <E>(
    effect: Effect.Effect<void, E, CurrentOrganization | IdempotencyStore.IdempotencyStore>
  ) =>
    Effect.gen(function* () {
      const { organization: org } = yield* (yield* Organizations.Organizations).create({ name: "Unit" })
      yield* Effect.provideService(effect, CurrentOrganization, org)
    }).pipe(Effect.provide(InMemory.layer))

  const request = (key: string) => ({
    headers: { "Idempotency-Key": IdempotencyKey.IdempotencyKey.make(key) },
    method: "POST",
    route: "/things",
    path: {},
    body: { n: 1 },
    success: Schema.Struct({ n: Schema.Number })
  })

  it.effect("frees the key when the request is interrupted, so that a retry runs", () =>
    withOrganization(
      Effect.gen(function* () {
        const started = yield* Effect.makeLatch(false)
        const fiber = yield* Effect.fork(
          Idempotent.run(request("cut"), Effect.zipRight(started.open, Effect.never))
        )
        yield* started.await
        yield* Fiber.interrupt(fiber)
        const retried = yield* Idempotent.run(request("cut"), Effect.succeed({ n: 2 }))
        expect(retried).toEqual({ n: 2 })
      })
    )
  )

  it.effect("runs one of many simultaneous requests; the others are 409 while it runs, then replays", () =>
    withOrganization(
      Effect.gen(function* () {
        const started = yield* Effect.makeLatch(false)
        const release = yield* Effect.makeLatch(false)
        let runs = 0
        const slow = Effect.sync(() => ++runs).pipe(
          Effect.zipRight(started.open),
          Effect.zipRight(release.await),
          Effect.as({ n: 1 })
        )
        const first = yield* Effect.fork(Idempotent.run(request("together"), slow))
        yield* started.await
        const others = yield* Effect.all(
          Array.from({ length: 4 }, () => Effect.either(Idempotent.run(request("together"), slow))),
          { concurrency: "unbounded" }
        )
        for (const other of others) {
          expect(other._tag).toBe("Left")
          if (other._tag === "Left") expect(other.left).toBeInstanceOf(Conflict)
        }
        yield* release.open
        expect(yield* Fiber.join(first)).toEqual({ n: 1 })
        const later = yield* Idempotent.run(request("together"), slow)
        expect(HttpServerResponse.isServerResponse(later)).toBe(true)
        expect(runs).toBe(1)
      })
    )
  )

  it.effect("frees the key when the handler dies (a 500), and keeps a success", () =>
    withOrganization(
      Effect.gen(function* () {
        const died = yield* Effect.exit(Idempotent.run(request("boom"), Effect.die("boom")))
        expect(died._tag).toBe("Failure")
        let runs = 0
        const handler = Effect.sync(() => ++runs).pipe(Effect.as({ n: 3 }))
        expect(yield* Idempotent.run(request("boom"), handler)).toEqual({ n: 3 })
        const again = yield* Idempotent.run(request("boom"), handler)
        expect(runs).toBe(1)
        // a replay is the stored answer as a response, not the handler's value
        expect(HttpServerResponse.isServerResponse(again)).toBe(true)
        if (HttpServerResponse.isServerResponse(again)) {
          expect(again.status).toBe(200)
          expect(again.headers["idempotency-replayed"]).toBe("true")
        }
      })
    )
  )
})
