import type { Stores } from "../src/storage/Stores.js"
import type { Vitest } from "@effect/vitest"
import { describe, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { DocumentStore } from "../src/knowledge-base/DocumentStore.js"
import { endpointIdFrom } from "../src/webhooks/WebhookEndpoint.js"
import { WebhookStore } from "../src/webhooks/WebhookStore.js"
import * as Fixtures from "./Fixtures.js"
import { page, at } from "./ContractFixtures.js"

/** The storage contract for per-organization quotas; `storeContract` runs it against every adapter. */
export const quotaContract = (it: Vitest.MethodsNonLive<Stores>) => {
  describe("quotas", () => {
    it.effect(
      "let exactly as many simultaneous creations pass as the quota has room for, per organization",
      () =>
        Effect.gen(function* () {
          const webhooks = yield* WebhookStore
          const documents = yield* DocumentStore
          const org = yield* Fixtures.organization()
          const other = yield* Fixtures.organization()
          const suffix = yield* Fixtures.unique()
          const endpoint = (organization_id: typeof org.id, n: number) => ({
            id: endpointIdFrom(`${suffix}${String(n).padStart(8, "0")}`),
            organization_id,
            url: `https://example.com/${n}`,
            description: null,
            events: ["call.ended"] as const,
            secret: "whsec_c2VjcmV0",
            enabled: true,
            created_at: at(n)
          })
          expect(Option.isSome(yield* webhooks.insertEndpointWithin(endpoint(org.id, 0), 3))).toBe(true)
          const endpoints = yield* Effect.all(
            Array.from({ length: 10 }, (_, n) => webhooks.insertEndpointWithin(endpoint(org.id, n + 1), 3)),
            { concurrency: "unbounded" }
          )
          expect(endpoints.filter(Option.isSome)).toHaveLength(2)
          expect((yield* webhooks.listEndpoints(org.id, page(1))).total_count).toBe(3)
          // the other organization's count is its own
          expect(Option.isSome(yield* webhooks.insertEndpointWithin(endpoint(other.id, 20), 1))).toBe(true)
          expect(Option.isNone(yield* webhooks.insertEndpointWithin(endpoint(other.id, 21), 1))).toBe(true)

          const uploads = yield* Effect.all(
            Array.from({ length: 10 }, (_, n) =>
              documents.insertWithin(Fixtures.newDocument(org.id, `${suffix}-${n}`), at(n), 4)
            ),
            { concurrency: "unbounded" }
          )
          expect(uploads.filter(Option.isSome)).toHaveLength(4)
          expect((yield* documents.list(org.id, page(1))).total_count).toBe(4)
          expect((yield* documents.list(other.id, page(1))).total_count).toBe(0)
        })
    )
  })
}
