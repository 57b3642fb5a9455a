import type { Stores } from "../src/storage/Stores.js"
import type { Vitest } from "@effect/vitest"
import { describe, expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { MinorUnits } from "../src/money/Money.js"
import { ApiKeyStore } from "../src/organizations/ApiKeyStore.js"
import { OrganizationStore } from "../src/organizations/OrganizationStore.js"
import * as Fixtures from "./Fixtures.js"
import { at } from "./ContractFixtures.js"

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
    it.effect("finds an active key by hash, and never a revoked one", () =>
      Effect.gen(function* () {
        const keys = yield* ApiKeyStore
        const org = yield* Fixtures.organization()
        const hash = `hash-${yield* Fixtures.unique()}`
        const key = yield* keys.insert(
          { organization_id: org.id, key_hash: hash, key_prefix: "vap_abcd" },
          Fixtures.epoch
        )
        const found = Option.getOrThrow(yield* keys.findActiveByHash(hash))
        expect(found.apiKey.id).toBe(key.id)
        expect(found.organization.id).toBe(org.id)
        const revoked = Option.getOrThrow(yield* keys.revoke(key.id, at(60)))
        expect(revoked.revoked_at).toEqual(at(60))
        expect(Option.isNone(yield* keys.findActiveByHash(hash))).toBe(true)
        expect(Option.getOrThrow(yield* keys.revoke(key.id, at(120))).revoked_at).toEqual(at(60))
        expect((yield* keys.list(org.id)).map((k) => k.id)).toEqual([key.id])
      })
    )
  })
}
