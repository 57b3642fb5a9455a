import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { ChannelStore } from "../../src/calls/ChannelStore.js"
import * as ApiKey from "../../src/organizations/ApiKey.js"
import { ApiKeys } from "../../src/organizations/ApiKeys.js"
import { ApiKeyStore } from "../../src/organizations/ApiKeyStore.js"
import { OrganizationId } from "../../src/organizations/Organization.js"
import { Organizations } from "../../src/organizations/Organizations.js"
import * as Quotas from "../../src/quotas/Quotas.js"
import * as Fixtures from "../../testing/Fixtures.js"
import { engine, setNow } from "../services/Engine.js"

const firstPage = { page: 1, limit: 50 }

describe("ApiKeys", () => {
  it.effect("creates a named key that authenticates, lists keys newest first, and revokes one at once", () =>
    Effect.gen(function* () {
      yield* setNow("2026-02-10T11:00:00.000Z")
      const { organization, key: first } = yield* (yield* Organizations).create({ name: "Acme" })
      const keys = yield* ApiKeys
      const store = yield* ApiKeyStore
      yield* setNow("2026-02-10T11:05:00.000Z")
      const created = yield* keys.create(organization.id, "CRM integration")
      expect(ApiKey.isWellFormed(created.api_key)).toBe(true)
      expect(created.key).toMatchObject({
        organization_id: organization.id,
        name: "CRM integration",
        key_prefix: ApiKey.displayPrefix(created.api_key),
        created_at: new Date("2026-02-10T11:05:00.000Z"),
        last_used_at: null,
        revoked_at: null
      })
      const found = yield* store.findActiveByHash(yield* ApiKey.hash(created.api_key))
      expect(Option.getOrThrow(found).organization.id).toBe(organization.id)

      const listed = yield* keys.list(organization.id, firstPage)
      expect(listed.items.map((k) => k.id)).toEqual([created.key.id, first.api_key_id])
      // the organization's first key is named after its prefix
      expect(listed.items[1]!.name).toBe(`Key ${ApiKey.displayPrefix(first.api_key)}`)

      yield* setNow("2026-02-10T11:10:00.000Z")
      const revoked = yield* keys.revoke(organization.id, created.key.id)
      expect(revoked.revoked_at).toEqual(new Date("2026-02-10T11:10:00.000Z"))
      expect(Option.isNone(yield* store.findActiveByHash(yield* ApiKey.hash(created.api_key)))).toBe(true)
      // revoking again answers the key as it was revoked
      yield* setNow("2026-02-10T11:15:00.000Z")
      expect((yield* keys.revoke(organization.id, created.key.id)).revoked_at).toEqual(revoked.revoked_at)
    }).pipe(Effect.provide(engine))
  )

  it.effect("never revokes the last active key, and finds no other organization's key", () =>
    Effect.gen(function* () {
      const { organization, key } = yield* (yield* Organizations).create({ name: "Acme" })
      const stranger = yield* (yield* Organizations).create({ name: "Other" })
      const keys = yield* ApiKeys
      const last = yield* Effect.flip(keys.revoke(organization.id, key.api_key_id))
      expect(last._tag).toBe("LastActiveApiKey")
      expect(last.message).toMatch(/^last_active_key: /)
      const theirs = yield* Effect.flip(keys.revoke(organization.id, stranger.key.api_key_id))
      expect(theirs).toMatchObject({ _tag: "ApiKeyNotFound", api_key_id: stranger.key.api_key_id })
      expect((yield* keys.list(stranger.organization.id, firstPage)).items[0]!.revoked_at).toBeNull()
      // with another key, the first can go
      yield* keys.create(organization.id, "Second")
      expect((yield* keys.revoke(organization.id, key.api_key_id)).revoked_at).not.toBeNull()
    }).pipe(Effect.provide(engine))
  )

  it.effect("creates keys while the organization has fewer active keys than its quota", () =>
    Effect.gen(function* () {
      const { organization, key } = yield* (yield* Organizations).create({ name: "Acme" })
      const keys = yield* ApiKeys
      yield* keys.create(organization.id, "Second")
      const refused = yield* Effect.flip(keys.create(organization.id, "Third"))
      expect(refused.message).toBe(
        "quota_exceeded: the organization has 2 active API keys, the most it may have; revoke one before creating another"
      )
      yield* keys.revoke(organization.id, key.api_key_id)
      expect((yield* keys.create(organization.id, "Third")).key.name).toBe("Third")
    }).pipe(Effect.provide(engine), Effect.provide(Quotas.layer({ api_keys: 2 })))
  )
})

describe("Organizations.overview", () => {
  it.effect("answers the organization as it is now and the channels its calls hold", () =>
    Effect.gen(function* () {
      yield* setNow("2026-02-10T11:00:00.000Z")
      const organization = yield* Fixtures.organization({ outbound_channels: 3, balance: 1234 })
      const channels = yield* ChannelStore
      const now = new Date("2026-02-10T11:00:00.000Z")
      const hold = (id: string, expiresInSeconds: number) =>
        channels.reserve(
          {
            id,
            organization_id: organization.id,
            reserved_at: now,
            expires_at: new Date(now.getTime() + expiresInSeconds * 1000),
            expected_release_at: null
          },
          3,
          now
        )
      yield* hold("a", 600)
      yield* hold("b", 600)
      const overview = yield* (yield* Organizations).overview(organization.id)
      expect(overview).toEqual({ organization, channels_busy: 2 })
      yield* channels.release(organization.id, "a")
      expect((yield* (yield* Organizations).overview(organization.id)).channels_busy).toBe(1)
      const missing = yield* Effect.flip(
        (yield* Organizations).overview(OrganizationId.make(Number.MAX_SAFE_INTEGER))
      )
      expect(missing._tag).toBe("OrganizationNotFound")
    }).pipe(Effect.provide(engine))
  )
})
