import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Quotas } from "@voice-agent-platform/core"
import { ConfigProvider, Effect, Either } from "effect"
import * as ServerConfig from "../../src/server/ServerConfig.js"
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"

const documents = "/api/v1/knowledge-base/documents"

/** A small text file upload. */
const upload = (name: string) => {
  const data = new FormData()
  data.append("file", new Blob([`Notes ${name}`], { type: "text/plain" }), name)
  return HttpClientRequest.post(documents).pipe(HttpClientRequest.bodyFormData(data))
}

const createWebhook = (n: number) =>
  json("POST", "/api/v1/webhooks", { url: `https://crm.example.com/hooks/${n}` })

/** Small quotas, so that reaching them takes a few requests. */
const quotas = Quotas.layer({ webhook_endpoints: 3, documents: 2, campaigns: 2 })

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("quotas per organization over HTTP, %s storage", (_, server) => {
  it.effect("a webhook endpoint over the quota is 409 {detail}; deleting one makes room", () =>
    Effect.gen(function* () {
      const owner = yield* organization()
      const client = yield* rawClient(owner.apiKey)
      const created = []
      for (let n = 0; n < 3; n++) {
        const answer = yield* send(client, createWebhook(n))
        expect(answer.status).toBe(200)
        created.push(answer.body as { id: string })
      }
      const refused = yield* send(client, createWebhook(3))
      expect(refused.status).toBe(409)
      expect(refused.body).toEqual({
        detail:
          "quota_exceeded: the organization has 3 webhook endpoints, the most it may have; delete one before creating another"
      })
      const listed = yield* send(client, HttpClientRequest.get("/api/v1/webhooks"))
      expect((listed.body as { total_count: number }).total_count).toBe(3)
      // another organization has its own quota
      const other = yield* rawClient((yield* organization()).apiKey)
      expect((yield* send(other, createWebhook(0))).status).toBe(200)
      expect((yield* send(client, HttpClientRequest.del(`/api/v1/webhooks/${created[0]!.id}`))).status).toBe(
        204
      )
      expect((yield* send(client, createWebhook(4))).status).toBe(200)
    }).pipe(Effect.provide(server), Effect.provide(quotas))
  )

  it.effect(
    "a campaign over the quota of campaigns not yet ended is 409 {detail}; canceling one makes room",
    () =>
      Effect.gen(function* () {
        const client = yield* rawClient((yield* organization()).apiKey)
        const agent = yield* send(
          client,
          json("POST", "/api/v1/agents/from-script", { agent: { greeting: "Hi" } })
        )
        expect(agent.status).toBe(200)
        const create = json("POST", "/api/v1/campaigns", {
          name: "Quota",
          agent_id: (agent.body as { public_id: string }).public_id
        })
        const first = yield* send(client, create)
        expect(first.status).toBe(200)
        expect((yield* send(client, create)).status).toBe(200)
        const refused = yield* send(client, create)
        expect(refused.status).toBe(409)
        expect(refused.body).toEqual({
          detail:
            "quota_exceeded: the organization has 2 campaigns not yet completed or canceled, the most it may have; cancel one or let one complete before creating another"
        })
        const id = (first.body as { campaign_id: number }).campaign_id
        expect((yield* send(client, json("POST", `/api/v1/campaigns/${id}/cancel`, {}))).status).toBe(200)
        expect((yield* send(client, create)).status).toBe(200)
      }).pipe(Effect.provide(server), Effect.provide(quotas))
  )

  it.effect(
    "of simultaneous webhook creations at the limit exactly as many pass as the quota has room for",
    () =>
      Effect.gen(function* () {
        const owner = yield* organization()
        const client = yield* rawClient(owner.apiKey)
        expect((yield* send(client, createWebhook(0))).status).toBe(200)
        const answers = yield* Effect.all(
          Array.from({ length: 8 }, (_, n) => send(client, createWebhook(n + 1))),
          { concurrency: "unbounded" }
        )
        expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 409, 409, 409, 409, 409, 409])
        const listed = yield* send(client, HttpClientRequest.get("/api/v1/webhooks"))
        expect((listed.body as { total_count: number }).total_count).toBe(3)
      }).pipe(Effect.provide(server), Effect.provide(quotas))
  )

  it.effect("a document over the quota is 409 {detail} and stores nothing, also under concurrency", () =>
    Effect.gen(function* () {
      const owner = yield* organization()
      const client = yield* rawClient(owner.apiKey)
      expect((yield* send(client, upload("first.txt"))).status).toBe(200)
      const answers = yield* Effect.all(
        Array.from({ length: 6 }, (_, n) => send(client, upload(`more-${n}.txt`))),
        { concurrency: "unbounded" }
      )
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409])
      expect(answers.find((a) => a.status === 409)!.body).toEqual({
        detail:
          "quota_exceeded: the organization has 2 knowledge-base documents, the most it may have; delete one before creating another"
      })
      const listed = yield* send(client, HttpClientRequest.get(documents))
      expect((listed.body as { total_count: number }).total_count).toBe(2)
    }).pipe(Effect.provide(server), Effect.provide(quotas))
  )
})

describe("quotas per organization, defaults", () => {
  it("are 20 webhook endpoints, 1,000 documents, 100 campaigns and 20 active API keys, each configurable from 1 to 1,000,000", () => {
    expect(Quotas.defaults).toEqual({ webhook_endpoints: 20, documents: 1000, campaigns: 100, api_keys: 20 })
    expect(Quotas.isValidLimit(1)).toBe(true)
    expect(Quotas.isValidLimit(1_000_000)).toBe(true)
    expect(Quotas.isValidLimit(0)).toBe(false)
    expect(Quotas.isValidLimit(2.5)).toBe(false)
  })

  it.effect("apply when nothing is configured: the 21st webhook endpoint is 409", () =>
    Effect.gen(function* () {
      const client = yield* rawClient((yield* organization()).apiKey)
      for (let n = 0; n < 20; n++) expect((yield* send(client, createWebhook(n))).status).toBe(200)
      expect((yield* send(client, createWebhook(20))).status).toBe(409)
    }).pipe(Effect.provide(TestServer))
  )
})

describe("quotas in the bundled server's configuration", () => {
  const read = (env: Record<string, string>) =>
    Effect.withConfigProvider(
      Effect.either(ServerConfig.load),
      ConfigProvider.fromMap(new Map(Object.entries(env)))
    ).pipe(Effect.map(Either.map((config) => config.quotas)))

  it.effect(
    "reads QUOTA_WEBHOOK_ENDPOINTS, QUOTA_DOCUMENTS, QUOTA_CAMPAIGNS and QUOTA_API_KEYS, defaulting each, and refuses a bad value",
    () =>
      Effect.gen(function* () {
        expect(yield* read({})).toEqual(
          Either.right({ webhook_endpoints: 20, documents: 1000, campaigns: 100, api_keys: 20 })
        )
        expect(yield* read({ QUOTA_WEBHOOK_ENDPOINTS: "5" })).toEqual(
          Either.right({ webhook_endpoints: 5, documents: 1000, campaigns: 100, api_keys: 20 })
        )
        expect(yield* read({ QUOTA_DOCUMENTS: "250000" })).toEqual(
          Either.right({ webhook_endpoints: 20, documents: 250000, campaigns: 100, api_keys: 20 })
        )
        expect(yield* read({ QUOTA_CAMPAIGNS: "7" })).toEqual(
          Either.right({ webhook_endpoints: 20, documents: 1000, campaigns: 7, api_keys: 20 })
        )
        expect(yield* read({ QUOTA_API_KEYS: "3" })).toEqual(
          Either.right({ webhook_endpoints: 20, documents: 1000, campaigns: 100, api_keys: 3 })
        )
        for (const [name, bad] of ["0", "-1", "1.5", "many", "1000001"].flatMap((bad) => [
          ["QUOTA_DOCUMENTS", bad] as const,
          ["QUOTA_CAMPAIGNS", bad] as const,
          ["QUOTA_API_KEYS", bad] as const
        ])) {
          const refused = yield* read({ [name]: bad })
          expect(Either.isLeft(refused)).toBe(true)
          expect(String(Either.isLeft(refused) && refused.left)).toContain(name)
        }
      })
  )
})
