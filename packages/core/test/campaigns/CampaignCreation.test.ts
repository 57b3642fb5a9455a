import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Campaigns } from "../../src/campaigns/Campaigns.js"
import { InMemory } from "../../src/index.js"
import { PhoneNumbers } from "../../src/phone-numbers/PhoneNumbers.js"
import * as Quotas from "../../src/quotas/Quotas.js"
import { organizationWithAgent, setNow } from "../services/Engine.js"

// 12:00 in Warsaw (CET)
const warsawNoon = "2026-02-10T11:00:00.000Z"

describe("creating a campaign", () => {
  it.effect(
    "dials from an active number of the organization only: another's or a released one is not found",
    () =>
      Effect.gen(function* () {
        yield* setNow(warsawNoon)
        const { organization, agent } = yield* organizationWithAgent({ balance: 100_000 })
        const numbers = yield* PhoneNumbers
        const campaigns = yield* Campaigns
        const added = yield* numbers.addToInventory({ number: "+48 22 123 45 67", number_type: "landline" })
        const create = campaigns.create(organization.id, {
          name: "Caller id",
          agent: agent.public_id,
          from_phone_number_id: added.id,
          contacts: [{ row: 1, phone_number: "+48500100001", initial_context: {} }]
        })
        expect((yield* Effect.flip(create))._tag).toBe("PhoneNumberNotFound")
        yield* numbers.order(organization.id, { number_type: "landline", phone_number_id: added.id })
        const { campaign } = yield* create
        expect(campaign.from_phone_number_id).toBe(added.id)
        yield* numbers.release(organization.id, added.id)
        expect((yield* Effect.flip(create))._tag).toBe("PhoneNumberNotFound")
      }).pipe(Effect.provide(InMemory.layer))
  )

  it.effect(
    "holds an organization to its quota of campaigns not yet ended; an ended one frees its place",
    () =>
      Effect.gen(function* () {
        const { organization, agent } = yield* organizationWithAgent()
        const campaigns = yield* Campaigns
        const create = campaigns.create(organization.id, { name: "Quota", agent: agent.public_id })
        const first = yield* create
        yield* create
        const refused = yield* Effect.flip(create)
        expect(refused._tag).toBe("QuotaExceeded")
        expect(refused.message).toContain("the organization has 2 campaigns not yet completed or canceled")
        const other = yield* organizationWithAgent()
        yield* campaigns.create(other.organization.id, { name: "Elsewhere", agent: other.agent.public_id })
        yield* campaigns.act(organization.id, first.campaign.id, "cancel")
        yield* create
        expect((yield* campaigns.list(organization.id, { page: 1, limit: 10 })).total_count).toBe(3)
      }).pipe(Effect.provide(Layer.provideMerge(InMemory.layer, Quotas.layer({ campaigns: 2 }))))
  )
})
