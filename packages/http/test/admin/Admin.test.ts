import { HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { adminToken, json, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"

const operator = Effect.map(
  HttpClient.HttpClient,
  HttpClient.mapRequest(HttpClientRequest.bearerToken(adminToken))
)

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("operator API, %s storage", (_, server) => {
  it.effect("creates an organization whose key works, issues and revokes keys, tops up the balance", () =>
    Effect.gen(function* () {
      const admin = yield* operator
      const created = yield* send(
        admin,
        json("POST", "/admin/v1/organizations", { name: "Acme", outbound_channels: 3 })
      )
      expect(created.status).toBe(200)
      const { organization_id, api_key } = created.body as { organization_id: number; api_key: string }
      expect(api_key).toMatch(/^vap_[0-9A-Za-z]{40}$/)
      const client = yield* rawClient(api_key)
      expect((yield* send(client, HttpClientRequest.get("/api/v1/agents"))).status).toBe(200)

      const issued = yield* send(
        admin,
        HttpClientRequest.post(`/admin/v1/organizations/${organization_id}/api-keys`)
      )
      const second = issued.body as { api_key_id: number; api_key: string }
      expect(
        (yield* send(yield* rawClient(second.api_key), HttpClientRequest.get("/api/v1/agents"))).status
      ).toBe(200)
      expect(
        (yield* send(admin, HttpClientRequest.del(`/admin/v1/api-keys/${second.api_key_id}`))).status
      ).toBe(204)
      const revoked = yield* send(yield* rawClient(second.api_key), HttpClientRequest.get("/api/v1/agents"))
      expect(revoked.status).toBe(401)
      expect(revoked.body).toEqual({ detail: "Invalid API key" })
      expect((yield* send(admin, HttpClientRequest.del("/admin/v1/api-keys/999999"))).status).toBe(404)

      const topped = yield* send(
        admin,
        json("POST", `/admin/v1/organizations/${organization_id}/balance-top-ups`, { amount_pln: 123.45 })
      )
      expect(topped.body).toMatchObject({ organization_id, balance_pln: 123.45, outbound_channels: 3 })
      const tooPrecise = yield* send(
        admin,
        json("POST", `/admin/v1/organizations/${organization_id}/balance-top-ups`, { amount_pln: 1.234 })
      )
      expect(tooPrecise.status).toBe(422)

      const patched = yield* send(
        admin,
        json("PATCH", `/admin/v1/organizations/${organization_id}`, {
          outbound_channels: 5,
          recording_retention_days: 30
        })
      )
      expect(patched.body).toMatchObject({ outbound_channels: 5, recording_retention_days: 30 })
      expect(
        (yield* send(admin, json("PATCH", "/admin/v1/organizations/999999", { outbound_channels: 5 }))).status
      ).toBe(404)
    }).pipe(Effect.provide(server))
  )

  it.effect("adds Polish numbers to the inventory, once", () =>
    Effect.gen(function* () {
      const admin = yield* operator
      const added = yield* send(
        admin,
        json("POST", "/admin/v1/phone-numbers", { number: "+48 22 765 43 21", number_type: "landline" })
      )
      expect(added.status).toBe(200)
      expect(added.body).toMatchObject({
        number: "+48227654321",
        number_type: "landline",
        status: "available"
      })
      const again = yield* send(
        admin,
        json("POST", "/admin/v1/phone-numbers", { number: "+48227654321", number_type: "landline" })
      )
      expect(again.status).toBe(409)
      const foreign = yield* send(
        admin,
        json("POST", "/admin/v1/phone-numbers", { number: "+12125550123", number_type: "landline" })
      )
      expect(foreign.status).toBe(422)
      expect(foreign.body).toMatchObject({ detail: [{ loc: ["body", "number"] }] })
    }).pipe(Effect.provide(server))
  )

  it.effect(
    "refuses a wrong or missing token with 401, and an organization key is not an operator token",
    () =>
      Effect.gen(function* () {
        const client = yield* HttpClient.HttpClient
        const noToken = yield* send(client, json("POST", "/admin/v1/organizations", { name: "x" }))
        expect(noToken.status).toBe(401)
        const wrong = yield* send(
          HttpClient.mapRequest(client, HttpClientRequest.bearerToken("wrong-token-wrong-token")),
          json("POST", "/admin/v1/organizations", { name: "x" })
        )
        expect(wrong.status).toBe(401)
        expect(wrong.body).toEqual({ detail: "Invalid operator token" })
      }).pipe(Effect.provide(server))
  )
})
