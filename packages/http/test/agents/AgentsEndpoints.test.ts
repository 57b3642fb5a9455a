import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"

type Agent = {
  id: number
  public_id: string
  name: string
  status: string
  current_definition_id: number
  workflow_configurations: Record<string, unknown>
}
type Page<A> = { items: Array<A>; total_count: number; total_pages: number; page: number; limit: number }

const script = (greeting = "Hello!") => ({ agent: { greeting } })

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("agents endpoints, %s storage", (_, server) => {
  it.effect("analyze-script answers a preview that from-script accepts", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const preview = yield* send(
        client,
        json("POST", "/api/v1/agent-templates/analyze-script", {
          script:
            "Goal: book a visit\nGreeting: Dzień dobry, tu przychodnia.\nKroki:\n1. Przedstaw się\n2. Zaproponuj termin",
          language: "pl"
        })
      )
      expect(preview.status).toBe(200)
      expect(preview.body).toMatchObject({
        language: "pl",
        agent: {
          greeting: "Dzień dobry, tu przychodnia.",
          agent_goal: "book a visit",
          conversation_structure: ["Przedstaw się", "Zaproponuj termin"]
        }
      })
      const created = yield* send(client, json("POST", "/api/v1/agents/from-script", preview.body))
      expect(created.status).toBe(200)
      expect(
        (created.body as { workflow_definition: { first_message: string } }).workflow_definition.first_message
      ).toBe("Dzień dobry, tu przychodnia.")
      const empty = yield* send(
        client,
        json("POST", "/api/v1/agent-templates/analyze-script", { script: "" })
      )
      expect(empty.status).toBe(422)
      expect(empty.body).toMatchObject({ detail: [{ loc: ["body", "script"] }] })
    }).pipe(Effect.provide(server))
  )

  it.effect("lists agents newest first with pagination bounds and a status filter", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const ids: Array<number> = []
      for (let i = 0; i < 3; i++) {
        ids.push(
          (
            (yield* send(
              client,
              json("POST", "/api/v1/agents/from-script", { ...script(), agent_name: `A${i}` })
            )).body as Agent
          ).id
        )
      }
      const first = (yield* send(client, HttpClientRequest.get("/api/v1/agents?page=1&limit=2")))
        .body as Page<Agent>
      expect(first).toMatchObject({ total_count: 3, total_pages: 2, page: 1, limit: 2 })
      const second = (yield* send(client, HttpClientRequest.get("/api/v1/agents?page=2&limit=2")))
        .body as Page<Agent>
      expect([...first.items, ...second.items].map((a) => a.id).sort()).toEqual([...ids].sort())
      const past = (yield* send(client, HttpClientRequest.get("/api/v1/agents?page=9&limit=2")))
        .body as Page<Agent>
      expect(past.items).toEqual([])
      expect((yield* send(client, HttpClientRequest.get("/api/v1/agents?limit=0"))).status).toBe(422)
      expect((yield* send(client, HttpClientRequest.get("/api/v1/agents?limit=101"))).status).toBe(422)
      expect((yield* send(client, HttpClientRequest.get("/api/v1/agents?page=abc"))).status).toBe(422)
      yield* send(client, json("PATCH", `/api/v1/agents/${ids[0]}`, { status: "archived" }))
      const archived = (yield* send(client, HttpClientRequest.get("/api/v1/agents?status=archived")))
        .body as Page<Agent>
      expect(archived.items.map((a) => a.id)).toEqual([ids[0]])
      const stranger = yield* rawClient((yield* organization()).apiKey)
      expect(
        ((yield* send(stranger, HttpClientRequest.get("/api/v1/agents"))).body as Page<Agent>).total_count
      ).toBe(0)
    }).pipe(Effect.provide(server))
  )

  it.effect("patches name, status and configuration (merged), validates, and keeps tenancy", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const agent = (yield* send(client, json("POST", "/api/v1/agents/from-script", script()))).body as Agent
      const patched = yield* send(
        client,
        json("PATCH", `/api/v1/agents/${agent.public_id}`, {
          name: "  Reception  ",
          workflow_configurations: { transfer_numbers: ["+48221234567"] }
        })
      )
      expect(patched.status).toBe(200)
      expect(patched.body).toMatchObject({
        name: "Reception",
        workflow_configurations: { transfer_numbers: ["+48221234567"], max_call_duration_seconds: 600 }
      })
      const invalid = yield* send(
        client,
        json("PATCH", `/api/v1/agents/${agent.public_id}`, {
          status: "deleted",
          workflow_configurations: { max_call_duration_seconds: 5, transfer_numbers: ["123"] },
          unknown: 1
        })
      )
      expect(invalid.status).toBe(422)
      const locs = (invalid.body as { detail: Array<{ loc: Array<string> }> }).detail.map((d) =>
        d.loc.join(".")
      )
      expect(locs).toEqual(
        expect.arrayContaining([
          "body.status",
          "body.workflow_configurations.max_call_duration_seconds",
          "body.workflow_configurations.transfer_numbers.0",
          "body.unknown"
        ])
      )
      const stranger = yield* rawClient((yield* organization()).apiKey)
      expect(
        (yield* send(stranger, json("PATCH", `/api/v1/agents/${agent.public_id}`, { name: "x" }))).status
      ).toBe(404)
      expect(
        (yield* send(client, json("PATCH", "/api/v1/agents/agent_00000000000000000000", { name: "x" })))
          .status
      ).toBe(404)
    }).pipe(Effect.provide(server))
  )

  it.effect("lists definition versions, newest first", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const agent = (yield* send(client, json("POST", "/api/v1/agents/from-script", script()))).body as Agent
      const suggestion = (yield* send(
        client,
        json("POST", `/api/v1/agents/${agent.public_id}/improvements`, { text: "Be brief." })
      )).body as { id: number }
      yield* send(
        client,
        HttpClientRequest.post(`/api/v1/agents/${agent.public_id}/improvements/${suggestion.id}/accept`)
      )
      const versions = (yield* send(client, HttpClientRequest.get(`/api/v1/agents/${agent.id}/definitions`)))
        .body as Page<{
        version: number
        workflow_id: number
        workflow_definition: { system_prompt: string }
      }>
      expect(versions.items.map((v) => v.version)).toEqual([2, 1])
      expect(versions.items[0]?.workflow_definition.system_prompt.endsWith("\n\nBe brief.")).toBe(true)
      expect(versions.items[0]?.workflow_id).toBe(agent.id)
      expect((yield* send(client, HttpClientRequest.get("/api/v1/agents/999999/definitions"))).status).toBe(
        404
      )
    }).pipe(Effect.provide(server))
  )

  it.effect("exposes /health and /ready without a key", () =>
    Effect.gen(function* () {
      const client = yield* rawClient("")
      expect((yield* send(client, HttpClientRequest.get("/health"))).body).toEqual({ status: "ok" })
      expect((yield* send(client, HttpClientRequest.get("/ready"))).body).toEqual({ status: "ready" })
    }).pipe(Effect.provide(server))
  )
})
