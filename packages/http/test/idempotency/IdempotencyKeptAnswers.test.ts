/** Idempotency-Key over HTTP: which answers are kept, for whom, and for how long. */
import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import {
  ChannelStore,
  IdempotencyKey,
  IdempotencyRecord,
  IdempotencyStore,
  MemoryTelephony,
  Money,
  Organizations,
  PhoneNumbers,
  RequestFingerprint,
  RunId,
  RunStore
} from "@voice-agent-platform/core"
import { Effect, Option, TestClock } from "effect"
import { organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"
import {
  warsawNoon,
  setNow,
  type Body,
  setup,
  post,
  placed,
  replayed
} from "../support/IdempotencyFixtures.js"

// 22:30 in Warsaw: outside calling hours until 08:00 the next morning (07:00Z).
const warsawNight = "2026-02-10T21:30:00.000Z"

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("Idempotency-Key over HTTP, %s storage", (_, server) => {
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
})
