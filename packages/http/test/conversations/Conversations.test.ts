import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { completedCall, createAgent, runEndpoints } from "../support/RunFixtures.js"
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"
import { type Body, conversations, locsOf } from "../support/ConversationFixtures.js"

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("conversations over HTTP, %s storage", (_, server) => {
  it.effect("creates a conversation record (no call) and reads it back by public id and by number", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const agent = yield* createAgent(client)
      yield* TestClock.adjust("90 seconds")

      const created = yield* send(
        client,
        json("POST", conversations(agent.public_id), {
          mode: "webrtc",
          initial_context: { first_name: "Ada", visits: 2 },
          name: "Browser demo"
        })
      )
      expect(created.status).toBe(200)
      // a browser session also gets its socket (see test/voice-sessions); the run's reads have no session
      const { session, ...run } = created.body as Body
      expect(session).toEqual({
        url: expect.stringMatching(/^ws:\/\/[^/]+\/voice\/sessions\/[0-9]+\/[0-9]+\.[A-Za-z0-9_-]{43}$/),
        token: expect.any(String),
        expires_at: "1970-01-01T00:03:30.000Z"
      })
      expect(session.url).toContain(`/voice/sessions/${run.workflow_run_id}/${session.token}`)
      expect(run).toEqual({
        workflow_run_id: expect.any(Number),
        workflow_id: agent.id,
        mode: "webrtc",
        status: "initialized",
        initial_context: { first_name: "Ada", visits: 2 },
        gathered_context: {},
        duration_seconds: null,
        created_at: "1970-01-01T00:01:30.000Z",
        ended_at: null,
        name: "Browser demo",
        phone_number: null,
        cost: {
          amount: null,
          currency: "PLN",
          breakdown: { telephony: null, language_model: null },
          tokens: { prompt: 0, completion: 0 }
        },
        disposition: null,
        campaign_id: null,
        summary: null,
        analysis_status: null,
        analysis_error: null,
        sms: [],
        logs: [],
        integration_deliveries: [],
        files: { recording: null, transcript: null }
      })
      for (const ref of [agent.public_id, agent.id]) {
        const read = yield* send(
          client,
          HttpClientRequest.get(`${conversations(ref)}/${run.workflow_run_id}`)
        )
        expect(read.status).toBe(200)
        expect(read.body).toEqual(run)
      }

      for (const mode of ["smallwebrtc", "chat"]) {
        const minimal = yield* send(client, json("POST", conversations(agent.id), { mode }))
        expect(minimal.status).toBe(200)
        expect(minimal.body).toMatchObject({ mode, status: "initialized", initial_context: {}, name: null })
        expect("session" in (minimal.body as Body)).toBe(mode !== "chat")
      }
    }).pipe(Effect.provide(server))
  )

  it.effect("refuses invalid bodies (422), unknown or foreign agents (404) and archived agents (409)", () =>
    Effect.gen(function* () {
      const owner = yield* organization()
      const stranger = yield* organization()
      const client = yield* rawClient(owner.apiKey)
      const agent = yield* createAgent(client)

      const invalid = yield* send(
        client,
        json("POST", conversations(agent.public_id), {
          mode: "phone",
          initial_context: "not an object",
          name: "x".repeat(256),
          extra: 1
        })
      )
      expect(invalid.status).toBe(422)
      expect(locsOf(invalid.body)).toEqual(
        expect.arrayContaining(["body.mode", "body.initial_context", "body.name", "body.extra"])
      )
      const missing = yield* send(client, json("POST", conversations(agent.public_id), {}))
      expect(missing.status).toBe(422)
      expect(missing.body).toEqual({
        detail: [{ loc: ["body", "mode"], msg: "Field required", type: "missing" }]
      })

      const unknown = yield* send(
        client,
        json("POST", conversations("agent_00000000000000000000"), { mode: "chat" })
      )
      expect(unknown.status).toBe(404)
      expect(unknown.body).toEqual({ detail: "Agent agent_00000000000000000000 not found" })
      const foreign = yield* send(
        yield* rawClient(stranger.apiKey),
        json("POST", conversations(agent.public_id), { mode: "chat" })
      )
      expect(foreign.status).toBe(404)
      expect(foreign.body).toEqual({ detail: `Agent ${agent.public_id} not found` })

      yield* send(client, json("PATCH", `/api/v1/agents/${agent.public_id}`, { status: "archived" }))
      const archived = yield* send(client, json("POST", conversations(agent.public_id), { mode: "chat" }))
      expect(archived.status).toBe(409)
      expect(archived.body).toEqual({
        detail: `agent_archived: agent ${agent.public_id} is archived; set its status to active to place calls`
      })
    }).pipe(Effect.provide(server))
  )

  it.effect("lists the agent's runs newest first, paginated, with exactly the list fields", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const agent = yield* createAgent(client)
      const other = yield* createAgent(client, "Other")
      const ids: Array<number> = []
      for (let i = 0; i < 3; i++) {
        const created = yield* send(client, json("POST", conversations(agent.id), { mode: "chat" }))
        ids.push((created.body as Body).workflow_run_id)
        yield* TestClock.adjust("1 minute")
      }
      yield* send(client, json("POST", conversations(other.id), { mode: "chat" }))

      const all = yield* send(client, HttpClientRequest.get(conversations(agent.public_id)))
      expect(all.status).toBe(200)
      const page = all.body as Body
      expect(page).toMatchObject({ total_count: 3, total_pages: 1, page: 1, limit: 50 })
      expect(page.items.map((r: Body) => r.workflow_run_id)).toEqual([...ids].reverse())
      expect(page.items[0]).toEqual({
        workflow_run_id: ids[2],
        workflow_id: agent.id,
        mode: "chat",
        status: "initialized",
        initial_context: {},
        gathered_context: {},
        duration_seconds: null,
        created_at: "1970-01-01T00:02:00.000Z",
        ended_at: null
      })

      const second = (yield* send(client, HttpClientRequest.get(`${conversations(agent.id)}?page=2&limit=2`)))
        .body as Body
      expect(second).toMatchObject({ total_count: 3, total_pages: 2, page: 2, limit: 2 })
      expect(second.items.map((r: Body) => r.workflow_run_id)).toEqual([ids[0]])
      const past = yield* send(client, HttpClientRequest.get(`${conversations(agent.id)}?page=3&limit=2`))
      expect(past.status).toBe(200)
      expect(past.body).toMatchObject({ items: [], total_count: 3, page: 3 })
      expect(
        (yield* send(client, HttpClientRequest.get(`${conversations(agent.id)}?limit=100`))).status
      ).toBe(200)

      const bounds = yield* send(client, HttpClientRequest.get(`${conversations(agent.id)}?page=0&limit=101`))
      expect(bounds.status).toBe(422)
      expect(locsOf(bounds.body)).toEqual(expect.arrayContaining(["query.page", "query.limit"]))
      expect((yield* send(client, HttpClientRequest.get(`${conversations(agent.id)}?limit=0`))).status).toBe(
        422
      )

      const stranger = yield* organization()
      const foreign = yield* send(
        yield* rawClient(stranger.apiKey),
        HttpClientRequest.get(conversations(agent.id))
      )
      expect(foreign.status).toBe(404)
    }).pipe(Effect.provide(server))
  )

  it.effect("filters by status and creation time; an invalid filter is a 422 naming it", () =>
    Effect.gen(function* () {
      const { apiKey, organization: org } = yield* organization()
      const client = yield* rawClient(apiKey)
      const agent = yield* createAgent(client)
      const { run: call } = yield* completedCall(org, agent.id) // created 2026-03-01T12:00:00Z
      yield* TestClock.setTime(new Date("2026-03-02T08:00:00Z").getTime())
      const chat = (yield* send(client, json("POST", conversations(agent.id), { mode: "chat" }))).body as Body
      const idsOf = (query: string) =>
        Effect.map(send(client, HttpClientRequest.get(`${conversations(agent.id)}?${query}`)), (r) =>
          (r.body as Body).items.map((run: Body) => run.workflow_run_id)
        )

      expect(yield* idsOf("status=completed")).toEqual([call.workflow_run_id])
      expect(yield* idsOf("status=initialized")).toEqual([chat.workflow_run_id])
      expect(yield* idsOf("status=in_progress")).toEqual([])
      expect(yield* idsOf("created_after=2026-03-01T12:00:00Z")).toEqual([
        chat.workflow_run_id,
        call.workflow_run_id
      ])
      expect(yield* idsOf("created_after=2026-03-01T12:00:00.001Z")).toEqual([chat.workflow_run_id])
      expect(yield* idsOf("created_before=2026-03-01T13:00:00%2B01:00")).toEqual([])
      expect(yield* idsOf("created_before=2026-03-01T13:00:01%2B01:00")).toEqual([call.workflow_run_id])
      expect(
        yield* idsOf(
          "created_after=2026-03-01T00:00:00Z&created_before=2026-03-02T00:00:00Z&status=completed"
        )
      ).toEqual([call.workflow_run_id])

      const invalid = yield* send(
        client,
        HttpClientRequest.get(
          `${conversations(agent.id)}?status=done&created_after=yesterday&created_before=2026-02-30T00:00:00Z`
        )
      )
      expect(invalid.status).toBe(422)
      expect(locsOf(invalid.body)).toEqual(
        expect.arrayContaining(["query.status", "query.created_after", "query.created_before"])
      )
      for (const bad of ["2026-03-01", "2026-03-01T12:00:00", "2026-03-01T24:00:00Z"]) {
        const response = yield* send(
          client,
          HttpClientRequest.get(`${conversations(agent.id)}?created_after=${bad}`)
        )
        expect(response.status).toBe(422)
        expect(locsOf(response.body)).toEqual(["query.created_after"])
      }
    }).pipe(Effect.provide(server))
  )

  it.effect("another organization's run, and another agent's run, are 404 on every run endpoint", () =>
    Effect.gen(function* () {
      const owner = yield* organization()
      const stranger = yield* organization()
      const client = yield* rawClient(owner.apiKey)
      const agent = yield* createAgent(client)
      const other = yield* createAgent(client, "Other")
      const { run } = yield* completedCall(owner.organization, agent.id)
      const strangerClient = yield* rawClient(stranger.apiKey)
      const strangerAgent = yield* createAgent(strangerClient)

      for (const request of runEndpoints(agent.public_id, run.workflow_run_id)) {
        const foreign = yield* send(strangerClient, request)
        expect(foreign.status).toBe(404)
        expect(foreign.body).toEqual({ detail: `Agent ${agent.public_id} not found` })
      }
      for (const [c, a] of [
        [strangerClient, strangerAgent.public_id],
        [client, other.public_id]
      ] as const) {
        for (const request of runEndpoints(a, run.workflow_run_id)) {
          const response = yield* send(c, request)
          expect(response.status).toBe(404)
          expect(response.body).toEqual({ detail: `Run ${run.workflow_run_id} not found` })
        }
      }
      // nothing was deleted by those attempts
      expect(
        (yield* send(client, HttpClientRequest.get(`${conversations(agent.id)}/${run.workflow_run_id}`)))
          .status
      ).toBe(200)
      for (const bad of ["0", "abc", "1.5"]) {
        const response = yield* send(client, HttpClientRequest.get(`${conversations(agent.id)}/${bad}`))
        expect(response.status).toBe(422)
        expect(locsOf(response.body)).toEqual(["path.run_id"])
      }
      const noKey = yield* send(
        yield* rawClient(""),
        HttpClientRequest.get(`${conversations(agent.id)}/${run.workflow_run_id}`)
      )
      expect(noKey.status).toBe(401)
    }).pipe(Effect.provide(server))
  )
})
