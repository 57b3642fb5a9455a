import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Money, Organizations } from "@voice-agent-platform/core"
import { Effect, TestClock } from "effect"
import { createAgent } from "../support/RunFixtures.js"
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"

// 12:00 in Warsaw: inside calling hours.
const warsawNoon = "2026-02-10T11:00:00.000Z"

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("the organization over HTTP, %s storage", (_, server) => {
  it.effect("answers its name, balance, channels and those busy now, and retention, read afresh", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(new Date(warsawNoon).getTime())
      const owner = yield* organization({ outbound_channels: 3 })
      const client = yield* rawClient(owner.apiKey)
      const read = Effect.map(send(client, HttpClientRequest.get("/api/v1/organization")), (answer) => {
        expect(answer.status).toBe(200)
        return answer.body
      })
      expect(yield* read).toEqual({
        organization_id: owner.organization.id,
        name: "Test organization",
        balance_pln: 0,
        outbound_channels: 3,
        channels_busy: 0,
        recording_retention_days: null,
        created_at: warsawNoon
      })

      // the operator tops up and sets a retention; a call holds a channel while it is live
      const organizations = yield* Organizations.Organizations
      yield* organizations.topUp(owner.organization.id, Money.MinorUnits.make(12_345))
      yield* organizations.update(owner.organization.id, { recording_retention_days: 30 })
      const agent = yield* createAgent(client)
      const placed = yield* send(
        client,
        json("POST", `/api/v1/agents/${agent.public_id}/calls`, { phone_number: "+48500100200" })
      )
      expect(placed.status).toBe(200)
      expect(yield* read).toMatchObject({
        balance_pln: 123.45,
        channels_busy: 1,
        recording_retention_days: 30
      })

      // another organization sees its own
      const other = yield* rawClient((yield* organization()).apiKey)
      const theirs = yield* send(other, HttpClientRequest.get("/api/v1/organization"))
      expect(theirs.body).toMatchObject({ channels_busy: 0, balance_pln: 0 })
      expect((theirs.body as { organization_id: number }).organization_id).not.toBe(owner.organization.id)
    }).pipe(Effect.provide(server))
  )

  it.effect("answers 401 without a key, as every organization route does", () =>
    Effect.gen(function* () {
      const client = yield* rawClient("vap_" + "x".repeat(40))
      const refused = yield* send(client, HttpClientRequest.get("/api/v1/organization"))
      expect(refused.status).toBe(401)
      expect(refused.body).toEqual({ detail: "Invalid API key" })
    }).pipe(Effect.provide(server))
  )
})
