import type { Stores } from "../src/storage/Stores.js"
import type { Vitest } from "@effect/vitest"
import { describe, expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { MinorUnits } from "../src/money/Money.js"
import type { OrganizationId } from "../src/organizations/Organization.js"
import { ApiKeyStore } from "../src/organizations/ApiKeyStore.js"
import { OrganizationStore } from "../src/organizations/OrganizationStore.js"
import * as Fixtures from "./Fixtures.js"
import { at, page } from "./ContractFixtures.js"

/** The storage contract for organizations and their API keys; `storeContract` runs it against every adapter. */
export const organizationStoreContract = (it: Vitest.MethodsNonLive<Stores>) => {
  describe("organizations", () => {
    it.effect("inserts, finds, updates", () =>
      Effect.gen(function* () {
        const store = yield* OrganizationStore
        const before = yield* store.count
        const org = yield* Fixtures.organization({ outbound_channels: 3, balance: 500 })
        expect(yield* store.count).toBeGreaterThan(before)
        expect(Option.getOrThrow(yield* store.find(org.id))).toEqual(org)
        const updated = yield* store.update(org.id, { outbound_channels: 7, recording_retention_days: 30 })
        expect(Option.getOrThrow(updated)).toMatchObject({
          outbound_channels: 7,
          recording_retention_days: 30,
          balance: 500
        })
      })
    )

    it.effect("debits only what the balance covers, exactly, under concurrency", () =>
      Effect.gen(function* () {
        const store = yield* OrganizationStore
        const org = yield* Fixtures.organization({ balance: 1000 })
        const results = yield* Effect.all(
          Array.from({ length: 25 }, () => Effect.either(store.debit(org.id, MinorUnits.make(100)))),
          { concurrency: "unbounded" }
        )
        expect(results.filter(Either.isRight)).toHaveLength(10)
        const refused = results.filter(Either.isLeft)
        expect(refused).toHaveLength(15)
        expect(refused[0]?.left).toMatchObject({
          _tag: "InsufficientBalance",
          balance: 0,
          required: 100,
          top_up: 100
        })
        expect(Option.getOrThrow(yield* store.find(org.id)).balance).toBe(0)
        const credited = yield* store.credit(org.id, MinorUnits.make(250))
        expect(Option.getOrThrow(credited).balance).toBe(250)
      })
    )
  })

  describe("API keys", () => {
    /** A new key of the organization, named `name`, its hash unique. */
    const newKey = (organizationId: OrganizationId, name = "Key") =>
      Effect.map(Fixtures.unique(), (suffix) => ({
        organization_id: organizationId,
        key_hash: `hash-${suffix}`,
        key_prefix: "vap_abcd",
        name
      }))

    it.effect("finds an active key by hash, and never a revoked one", () =>
      Effect.gen(function* () {
        const keys = yield* ApiKeyStore
        const org = yield* Fixtures.organization()
        const key = yield* keys.insert(yield* newKey(org.id, "CRM"), Fixtures.epoch)
        expect(key).toMatchObject({ name: "CRM", last_used_at: null, revoked_at: null })
        const found = Option.getOrThrow(yield* keys.findActiveByHash(key.key_hash))
        expect(found.apiKey).toEqual(key)
        expect(found.organization.id).toBe(org.id)
        const revoked = Option.getOrThrow(yield* keys.revoke(key.id, at(60)))
        expect(revoked.revoked_at).toEqual(at(60))
        expect(Option.isNone(yield* keys.findActiveByHash(key.key_hash))).toBe(true)
        expect(Option.getOrThrow(yield* keys.revoke(key.id, at(120))).revoked_at).toEqual(at(60))
        expect((yield* keys.list(org.id)).map((k) => k.id)).toEqual([key.id])
      })
    )

    it.effect("lists an organization's keys newest first, a page at a time, revoked ones included", () =>
      Effect.gen(function* () {
        const keys = yield* ApiKeyStore
        const org = yield* Fixtures.organization()
        const other = yield* Fixtures.organization()
        const made = []
        for (let n = 0; n < 5; n++) made.push(yield* keys.insert(yield* newKey(org.id, `Key ${n}`), at(n)))
        yield* keys.insert(yield* newKey(other.id), at(10))
        yield* keys.revoke(made[1]!.id, at(20))
        const newestFirst = [...made].reverse().map((k) => k.name)
        expect((yield* keys.list(org.id)).map((k) => k.name)).toEqual(newestFirst)
        const second = yield* keys.listPage(org.id, page(2, 2))
        expect(second).toMatchObject({ total_count: 5, total_pages: 3, page: 2, limit: 2 })
        expect(second.items.map((k) => k.name)).toEqual(newestFirst.slice(2, 4))
        expect(second.items[1]!.revoked_at).toEqual(at(20))
        expect((yield* keys.listPage(org.id, page(4, 2))).items).toEqual([])
      })
    )

    it.effect("creates keys within the quota of active keys, exactly under concurrency", () =>
      Effect.gen(function* () {
        const keys = yield* ApiKeyStore
        const org = yield* Fixtures.organization()
        const first = yield* keys.insert(yield* newKey(org.id), at(0))
        const revokedOne = yield* keys.insert(yield* newKey(org.id), at(0))
        yield* keys.revoke(revokedOne.id, at(1))
        const attempts = yield* Effect.all(
          Array.from({ length: 10 }, () =>
            Effect.flatMap(newKey(org.id), (key) => keys.insertWithin(key, at(2), 3))
          ),
          { concurrency: "unbounded" }
        )
        // the revoked key does not count: the first and two more are active
        expect(attempts.filter(Option.isSome)).toHaveLength(2)
        expect((yield* keys.list(org.id)).filter((k) => k.revoked_at === null)).toHaveLength(3)
        yield* keys.revoke(first.id, at(3))
        expect(Option.isSome(yield* keys.insertWithin(yield* newKey(org.id), at(4), 3))).toBe(true)
      })
    )

    it.effect("revokes a key unless it is the organization's last active one, deciding atomically", () =>
      Effect.gen(function* () {
        const keys = yield* ApiKeyStore
        const org = yield* Fixtures.organization()
        const other = yield* Fixtures.organization()
        const theirs = yield* keys.insert(yield* newKey(other.id), at(0))
        expect((yield* keys.revokeUnlessLast(org.id, theirs.id, at(1)))._tag).toBe("NotFound")
        const a = yield* keys.insert(yield* newKey(org.id), at(0))
        const b = yield* keys.insert(yield* newKey(org.id), at(0))
        const revoked = yield* keys.revokeUnlessLast(org.id, a.id, at(5))
        expect(revoked).toMatchObject({ _tag: "Revoked", key: { id: a.id, revoked_at: at(5) } })
        expect(yield* keys.revokeUnlessLast(org.id, a.id, at(6))).toMatchObject({
          _tag: "AlreadyRevoked",
          key: { revoked_at: at(5) }
        })
        expect(yield* keys.revokeUnlessLast(org.id, b.id, at(7))).toMatchObject({
          _tag: "LastActiveKey",
          key: { id: b.id, revoked_at: null }
        })
        expect(Option.isSome(yield* keys.findActiveByHash(b.key_hash))).toBe(true)
        // two revocations of the last two active keys at once: one wins, one key stays
        for (let round = 0; round < 5; round++) {
          const c = yield* keys.insert(yield* newKey(org.id), at(10 + round))
          const active = (yield* keys.list(org.id)).filter((k) => k.revoked_at === null)
          expect(active).toHaveLength(2)
          const outcomes = yield* Effect.all(
            active.map((k) => keys.revokeUnlessLast(org.id, k.id, at(20 + round))),
            { concurrency: "unbounded" }
          )
          expect(outcomes.map((o) => o._tag).sort()).toEqual(["LastActiveKey", "Revoked"])
          expect((yield* keys.list(org.id)).filter((k) => k.revoked_at === null)).toHaveLength(1)
          expect(c.organization_id).toBe(org.id)
        }
      })
    )

    it.effect("records a key's use at most once a period, and never an earlier use over a later one", () =>
      Effect.gen(function* () {
        const keys = yield* ApiKeyStore
        const org = yield* Fixtures.organization()
        const key = yield* keys.insert(yield* newKey(org.id), at(0))
        const lastUsed = Effect.map(keys.list(org.id), (all) => all[0]!.last_used_at)
        yield* keys.recordUse(key.id, at(100), at(40))
        expect(yield* lastUsed).toEqual(at(100))
        // a use after `since` is recorded already: nothing is written
        yield* keys.recordUse(key.id, at(130), at(70))
        expect(yield* lastUsed).toEqual(at(100))
        yield* keys.recordUse(key.id, at(90), at(30))
        expect(yield* lastUsed).toEqual(at(100))
        yield* keys.recordUse(key.id, at(200), at(140))
        expect(yield* lastUsed).toEqual(at(200))
        expect(Option.getOrThrow(yield* keys.findActiveByHash(key.key_hash)).apiKey.last_used_at).toEqual(
          at(200)
        )
      })
    )
  })
}
