import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"

const script = {
  agent: {
    agent_goal: "Confirm tomorrow's appointment",
    greeting: "Hello {{initial_context.first_name}}, this is the clinic.",
    conversation_structure: [
      "Confirm identity",
      { title: "Confirm the time", description: "Tomorrow at 10:00" }
    ],
    objections: [{ objection: "I am busy", response: "It takes one minute." }],
    required_phrases: ["This call is recorded."]
  },
  language: "en"
}

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("agents over HTTP, %s storage", (_, server) => {
  it.effect("creates an agent from a script and reads it by public id and by number", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const created = yield* send(client, json("POST", "/api/v1/agents/from-script", script))
      expect(created.status).toBe(200)
      const agent = created.body as Record<string, any>
      expect(agent.public_id).toMatch(/^agent_[A-Za-z0-9]{20}$/)
      expect(agent).toMatchObject({ workflow_id: agent.id, status: "active", total_runs: 0 })
      expect(agent.workflow_definition.first_message).toBe(script.agent.greeting)
      expect(agent.workflow_definition.system_prompt).toContain("## Required phrases")
      expect(typeof agent.created_at).toBe("string")
      expect(created.headers["x-request-id"]).toBeDefined()
      for (const ref of [agent.public_id, String(agent.id)]) {
        const read = yield* send(client, HttpClientRequest.get(`/api/v1/agents/${ref}`))
        expect(read.status).toBe(200)
        expect(read.body).toEqual(agent)
      }
    }).pipe(Effect.provide(server))
  )

  it.effect("answers 401 before validation, and 404 for another organization's agent", () =>
    Effect.gen(function* () {
      const owner = yield* organization()
      const stranger = yield* organization()
      const ownerClient = yield* rawClient(owner.apiKey)
      const agent = (yield* send(ownerClient, json("POST", "/api/v1/agents/from-script", script))).body as {
        public_id: string
      }

      const noKey = yield* send(
        yield* rawClient(""),
        json("POST", "/api/v1/agents/from-script", { not: "valid" })
      )
      expect(noKey.status).toBe(401)
      expect(noKey.body).toEqual({ detail: "Invalid API key" })
      const foreign = yield* send(
        yield* rawClient(stranger.apiKey),
        HttpClientRequest.get(`/api/v1/agents/${agent.public_id}`)
      )
      expect(foreign.status).toBe(404)
      expect(foreign.body).toEqual({ detail: `Agent ${agent.public_id} not found` })
    }).pipe(Effect.provide(server))
  )

  it.effect("answers FastAPI-shaped 422s listing every failing field, and 422 for malformed JSON", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const invalid = yield* send(
        client,
        json("POST", "/api/v1/agents/from-script", {
          agent: { call_direction: "sideways" },
          language: 5,
          extra: true
        })
      )
      expect(invalid.status).toBe(422)
      const locs = (invalid.body as { detail: Array<{ loc: Array<string> }> }).detail.map((d) =>
        d.loc.join(".")
      )
      expect(locs).toEqual(
        expect.arrayContaining([
          "body.agent.greeting",
          "body.agent.call_direction",
          "body.language",
          "body.extra"
        ])
      )

      const malformed = yield* send(
        client,
        HttpClientRequest.post("/api/v1/agents/from-script").pipe(
          HttpClientRequest.bodyText("{not json", "application/json")
        )
      )
      expect(malformed.status).toBe(422)
      expect(malformed.body).toMatchObject({ detail: [{ loc: ["body"], type: "json_invalid" }] })

      const badQuery = yield* send(
        client,
        HttpClientRequest.get("/api/v1/agents?page=0&limit=101&status=gone")
      )
      expect(badQuery.status).toBe(422)
      expect(
        (badQuery.body as { detail: Array<{ loc: Array<string> }> }).detail.map((d) => d.loc.join("."))
      ).toEqual(expect.arrayContaining(["query.page", "query.limit", "query.status"]))
    }).pipe(Effect.provide(server))
  )
})
