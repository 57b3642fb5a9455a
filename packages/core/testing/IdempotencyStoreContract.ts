import type { Stores } from "../src/storage/Stores.js"
import type { Vitest } from "@effect/vitest"
import { describe, expect } from "@effect/vitest"
import { Effect } from "effect"
import { IdempotencyKey } from "../src/idempotency/IdempotencyKey.js"
import type { IdempotencyClaim } from "../src/idempotency/IdempotencyRecord.js"
import * as IdempotencyRule from "../src/idempotency/IdempotencyRule.js"
import { IdempotencyStore } from "../src/idempotency/IdempotencyStore.js"
import { RunId } from "../src/runs/RunId.js"
import * as Fixtures from "./Fixtures.js"
import { at } from "./ContractFixtures.js"

/** The storage contract for idempotency keys; `storeContract` runs it against every adapter. */
export const idempotencyStoreContract = (it: Vitest.MethodsNonLive<Stores>) => {
  describe("idempotency keys", () => {
    const ttl = { retentionSeconds: 86_400, leaseSeconds: 60 }
    const claimOf = (
      organization_id: IdempotencyClaim["organization_id"],
      key: IdempotencyKey,
      fingerprint: string,
      token: string
    ): IdempotencyClaim => ({ organization_id, key, fingerprint, token })
    const freshKey = Effect.map(Fixtures.unique(), (s) => IdempotencyKey.make(`key-${s}`))

    it.effect("claims a key exactly once, however many first requests arrive at once", () =>
      Effect.gen(function* () {
        const store = yield* IdempotencyStore
        const org = yield* Fixtures.organization()
        const key = yield* freshKey
        const outcomes = yield* Effect.all(
          Array.from({ length: 50 }, (_, i) => store.begin(claimOf(org.id, key, "fp", `t${i}`), at(0), ttl)),
          { concurrency: "unbounded" }
        )
        expect(outcomes.filter((o) => o._tag === "Claimed")).toHaveLength(1)
        expect(outcomes.filter((o) => o._tag === "InFlight")).toHaveLength(49)
        expect(outcomes.find((o) => o._tag === "InFlight")).toEqual({
          _tag: "InFlight",
          leaseUntil: at(60)
        })
      })
    )

    it.effect("replays the final answer to the same request, refuses another, per organization", () =>
      Effect.gen(function* () {
        const store = yield* IdempotencyStore
        const org = yield* Fixtures.organization()
        const other = yield* Fixtures.organization()
        const key = yield* freshKey
        const claim = claimOf(org.id, key, "fp-a", "holder")
        expect(yield* store.begin(claim, at(0), ttl)).toEqual({ _tag: "Claimed" })
        const response = { status: 200, body: { id: 7, items: [1, "two", null], nested: { ok: true } } }
        expect(yield* store.complete({ ...claim, token: "stranger" }, response)).toBe(false)
        expect(yield* store.complete(claim, response)).toBe(true)
        expect(yield* store.complete(claim, { status: 404, body: {} })).toBe(false)
        expect(yield* store.begin({ ...claim, token: "retry" }, at(10), ttl)).toEqual({
          _tag: "Replay",
          response
        })
        expect(yield* store.begin(claimOf(org.id, key, "fp-b", "other-body"), at(10), ttl)).toEqual({
          _tag: "Mismatch"
        })
        // a completed key is no longer held: nobody can abandon it
        expect(yield* store.abandon(claim)).toBe(false)
        expect(yield* store.begin(claimOf(other.id, key, "fp-b", "elsewhere"), at(10), ttl)).toEqual({
          _tag: "Claimed"
        })
      })
    )

    it.effect("frees an abandoned key, and only its holder may abandon it", () =>
      Effect.gen(function* () {
        const store = yield* IdempotencyStore
        const org = yield* Fixtures.organization()
        const key = yield* freshKey
        const claim = claimOf(org.id, key, "fp-a", "holder")
        expect((yield* store.begin(claim, at(0), ttl))._tag).toBe("Claimed")
        expect(yield* store.abandon({ ...claim, token: "stranger" })).toBe(false)
        expect((yield* store.begin({ ...claim, token: "second" }, at(1), ttl))._tag).toBe("InFlight")
        expect(yield* store.abandon(claim)).toBe(true)
        expect(yield* store.abandon(claim)).toBe(false)
        // once free, the key takes any request
        expect((yield* store.begin(claimOf(org.id, key, "fp-b", "next"), at(2), ttl))._tag).toBe("Claimed")
      })
    )

    it.effect("lets a lapsed claim be taken over, and forgets keys after their retention", () =>
      Effect.gen(function* () {
        const store = yield* IdempotencyStore
        const org = yield* Fixtures.organization()
        const key = yield* freshKey
        const first = claimOf(org.id, key, "fp", "first")
        const second = { ...first, token: "second" }
        expect((yield* store.begin(first, at(0), ttl))._tag).toBe("Claimed")
        expect((yield* store.begin(second, at(59), ttl))._tag).toBe("InFlight")
        expect((yield* store.begin(second, at(60), ttl))._tag).toBe("Claimed")
        // the first request's late answer no longer counts
        expect(yield* store.complete(first, { status: 200, body: { from: "first" } })).toBe(false)
        expect(yield* store.abandon(first)).toBe(false)
        const answer = { status: 403, body: { detail: "refused" } }
        expect(yield* store.complete(second, answer)).toBe(true)
        const retry = { ...first, token: "retry" }
        const lastMoment = new Date(at(60).getTime() + 86_400_000 - 1)
        expect(yield* store.begin(retry, lastMoment, ttl)).toEqual({ _tag: "Replay", response: answer })
        expect(yield* store.begin(retry, at(60 + 86_400), ttl)).toEqual({ _tag: "Claimed" })
      })
    )
    it.effect("erases the answers naming a deleted run, keeping the key answered without its data", () =>
      Effect.gen(function* () {
        const store = yield* IdempotencyStore
        const org = yield* Fixtures.organization()
        const other = yield* Fixtures.organization()
        const runId = RunId.make(987_654_321)
        const answer = { status: 200, body: { workflow_run_id: runId, phone_number: "+48500100200" } }
        const placing = claimOf(org.id, yield* freshKey, "fp-call", "holder")
        const unrelated = claimOf(org.id, yield* freshKey, "fp-other", "holder")
        const elsewhere = claimOf(other.id, yield* freshKey, "fp-call", "holder")
        for (const claim of [placing, unrelated, elsewhere]) {
          expect((yield* store.begin(claim, at(0), ttl))._tag).toBe("Claimed")
        }
        expect(yield* store.complete(placing, answer, runId)).toBe(true)
        expect(yield* store.complete(unrelated, { status: 200, body: { workflow_run_id: 1 } })).toBe(true)
        // the same run number in another organization is another run
        expect(yield* store.complete(elsewhere, answer, runId)).toBe(true)

        expect(yield* store.eraseRun(org.id, runId)).toBe(1)
        const erased = { _tag: "Replay", response: IdempotencyRule.erasedAnswer(runId) }
        // the same request, or any other under the key: the erased answer, nothing of the run
        expect(yield* store.begin({ ...placing, token: "retry" }, at(10), ttl)).toEqual(erased)
        expect(
          yield* store.begin({ ...placing, fingerprint: "fp-another-body", token: "x" }, at(10), ttl)
        ).toEqual(erased)
        expect(JSON.stringify(erased)).not.toContain("+48500100200")
        expect((yield* store.begin({ ...unrelated, token: "retry" }, at(10), ttl))._tag).toBe("Replay")
        expect(yield* store.begin({ ...elsewhere, token: "retry" }, at(10), ttl)).toEqual({
          _tag: "Replay",
          response: answer
        })
        expect(yield* store.eraseRun(org.id, runId)).toBe(0)
        // the erased key still expires as planned
        expect((yield* store.begin({ ...placing, token: "later" }, at(86_400), ttl))._tag).toBe("Claimed")
      })
    )

    it.effect("purges expired records in bounded batches, and nothing else", () =>
      Effect.gen(function* () {
        const store = yield* IdempotencyStore
        const org = yield* Fixtures.organization()
        const short = { retentionSeconds: 10, leaseSeconds: 5 }
        // far in the future of every other test's records: those are purged first, so that the counts
        // below are this test's own
        const base = new Date("2100-01-01T00:00:00.000Z").getTime()
        const moment = (seconds: number) => new Date(base + seconds * 1000)
        while ((yield* store.purgeExpired(moment(-1), 1000)) > 0) {
          // keep purging until nothing older is left
        }
        const keys = yield* Effect.all(Array.from({ length: 5 }, () => freshKey))
        for (const [i, key] of keys.entries()) {
          const claim = claimOf(org.id, key, "fp", `t${i}`)
          expect((yield* store.begin(claim, moment(i), short))._tag).toBe("Claimed")
          yield* store.complete(claim, { status: 200, body: { i } })
        }
        // at 12 s the records made at 0, 1 and 2 s have expired; the other two have not
        expect(yield* store.purgeExpired(moment(12), 2)).toBe(2)
        expect(yield* store.purgeExpired(moment(12), 2)).toBe(1)
        expect(yield* store.purgeExpired(moment(12), 2)).toBe(0)
        // a purged key is free; a live one still replays
        expect((yield* store.begin(claimOf(org.id, keys[0]!, "fp", "n"), moment(12), short))._tag).toBe(
          "Claimed"
        )
        expect((yield* store.begin(claimOf(org.id, keys[4]!, "fp", "n"), moment(12), short))._tag).toBe(
          "Replay"
        )
      })
    )
  })
}
