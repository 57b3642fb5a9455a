import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { BlobStore, Money, TranscriptFile, TranscriptTurns, UsageStore } from "@voice-agent-platform/core"
import { Effect, Either, Option, TestClock } from "effect"
import {
  completedCall,
  createAgent,
  download,
  runEndpoints,
  serverOrigin,
  setRunStatus,
  storeRun,
  wav
} from "./support/RunFixtures.js"
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "./support/TestServer.js"

type Body = Record<string, any>

const conversations = (agent: string | number) => `/api/v1/agents/${agent}/conversations`

const locsOf = (body: unknown) =>
  (body as { detail: Array<{ loc: Array<string | number> }> }).detail.map((d) => d.loc.join("."))

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
      const run = created.body as Body
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
        cost: { amount: null, currency: "PLN" },
        disposition: null,
        campaign_id: null,
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

  it.effect("a completed call shows cost, SMS, logs and signed links that download its files", () =>
    Effect.gen(function* () {
      const { apiKey, organization: org } = yield* organization()
      const client = yield* rawClient(apiKey)
      const agent = yield* createAgent(client)
      const { run } = yield* completedCall(org, agent.id)
      const origin = yield* serverOrigin
      const base = `${conversations(agent.public_id)}/${run.workflow_run_id}`

      const single = yield* send(client, HttpClientRequest.get(base))
      expect(single.status).toBe(200)
      const body = single.body as Body
      expect(body).toEqual({
        workflow_run_id: run.workflow_run_id,
        workflow_id: agent.id,
        mode: "phone",
        status: "completed",
        initial_context: { phone_number: "+48500000100" },
        gathered_context: { confirmed: true },
        duration_seconds: 65,
        created_at: "2026-03-01T12:00:00.000Z",
        ended_at: "2026-03-01T12:01:05.000Z",
        name: null,
        phone_number: "+48500000100",
        cost: { amount: 12.34, currency: "PLN" },
        disposition: "confirmed",
        campaign_id: null,
        sms: [{ to: "+48500000100", text: "See you tomorrow", sent_at: "2026-03-01T12:01:10.000Z" }],
        logs: [{ timestamp: "2026-03-01T12:00:01.000Z", level: "info", message: "call answered" }],
        integration_deliveries: [],
        files: { recording: expect.any(String), transcript: expect.any(String) }
      })
      const linkPattern = new RegExp(
        `^${origin.replace(/\./g, "\\.")}/api/v1/files/download\\?key=[^&]+&expires=3600&signature=[A-Za-z0-9_-]{43}$`
      )
      expect(body.files.recording).toMatch(linkPattern)
      expect(body.files.transcript).toMatch(linkPattern)
      expect((yield* download(body.files.recording)).bytes).toEqual(wav)

      // the transcript's turns are exactly the merge of the raw file its link downloads
      const transcript = yield* send(client, HttpClientRequest.get(`${base}/transcript`))
      expect(transcript.status).toBe(200)
      const t = transcript.body as Body
      expect(Object.keys(t).sort()).toEqual(["download_url", "expires_at", "turns", "workflow_run_id"])
      expect(t.workflow_run_id).toBe(run.workflow_run_id)
      expect(t.download_url).toMatch(linkPattern)
      expect(t.expires_at).toBe("1970-01-01T01:00:00.000Z")
      const raw = yield* download(t.download_url)
      expect(raw.status).toBe(200)
      expect(raw.headers["content-type"]).toBe("text/plain; charset=utf-8")
      expect(raw.text.split("\n")[0]).toBe("[2026-03-01T12:00:00.000Z] assistant: Hello, this is the clinic.")
      const parsed = TranscriptFile.parse(raw.text)
      expect(Either.isRight(parsed)).toBe(true)
      const merged = TranscriptTurns.merge(Either.getOrThrow(parsed)).map((turn) => ({
        role: turn.role,
        text: turn.text,
        start: turn.start.toISOString(),
        end: turn.end.toISOString()
      }))
      expect(t.turns).toEqual(merged)
      expect(t.turns).toEqual([
        {
          role: "assistant",
          text: "Hello, this is the clinic. Is this a good time?",
          start: "2026-03-01T12:00:00.000Z",
          end: "2026-03-01T12:00:02.000Z"
        },
        {
          role: "user",
          text: "Yes. Go ahead.",
          start: "2026-03-01T12:00:04.000Z",
          end: "2026-03-01T12:00:05.000Z"
        },
        {
          role: "assistant",
          text: "Your appointment is tomorrow at ten.",
          start: "2026-03-01T12:00:07.000Z",
          end: "2026-03-01T12:00:07.000Z"
        }
      ])

      const recording = yield* send(client, HttpClientRequest.get(`${base}/recording`))
      expect(recording.status).toBe(200)
      expect(recording.body).toEqual({
        download_url: expect.stringMatching(linkPattern),
        content_type: "audio/wav",
        expires_at: "1970-01-01T01:00:00.000Z"
      })
      const file = yield* download((recording.body as Body).download_url)
      expect(file.status).toBe(200)
      expect(file.headers["content-type"]).toBe("audio/wav")
      expect(file.bytes).toEqual(wav)

      for (const [expiresIn, expiresAt] of [
        ["60", "1970-01-01T00:01:00.000Z"],
        ["86400", "1970-01-02T00:00:00.000Z"]
      ] as const) {
        for (const file of ["recording", "transcript"]) {
          const response = yield* send(
            client,
            HttpClientRequest.get(`${base}/${file}?expires_in=${expiresIn}`)
          )
          expect(response.status).toBe(200)
          expect((response.body as Body).expires_at).toBe(expiresAt)
          expect((response.body as Body).download_url).toContain(`&expires=${Number(expiresIn)}&`)
        }
      }
      for (const bad of ["59", "86401", "soon", "600.5"]) {
        const response = yield* send(client, HttpClientRequest.get(`${base}/recording?expires_in=${bad}`))
        expect(response.status).toBe(422)
        expect(locsOf(response.body)).toEqual(["query.expires_in"])
      }
    }).pipe(Effect.provide(server))
  )

  it.effect(
    "transcript and recording are 404 while the call is live, without files, and after retention",
    () =>
      Effect.gen(function* () {
        const { apiKey, organization: org } = yield* organization()
        const client = yield* rawClient(apiKey)
        const agent = yield* createAgent(client)
        const files = (runId: number) =>
          Effect.all({
            transcript: send(client, HttpClientRequest.get(`${conversations(agent.id)}/${runId}/transcript`)),
            recording: send(client, HttpClientRequest.get(`${conversations(agent.id)}/${runId}/recording`))
          })

        // files saved while the call is still in progress are not shown until it ends
        const { recordingKey, run: live, transcriptKey } = yield* completedCall(org, agent.id)
        yield* setRunStatus(org, live.workflow_run_id, "in_progress")
        const whileLive = yield* files(live.workflow_run_id)
        expect(whileLive.transcript.status).toBe(404)
        expect(whileLive.transcript.body).toEqual({
          detail: `The transcript of run ${live.workflow_run_id} is not available while the call is in progress`
        })
        expect(whileLive.recording.status).toBe(404)
        expect(whileLive.recording.body).toEqual({
          detail: `The recording of run ${live.workflow_run_id} is not available while the call is in progress`
        })
        const single = yield* send(
          client,
          HttpClientRequest.get(`${conversations(agent.id)}/${live.workflow_run_id}`)
        )
        expect((single.body as Body).files).toEqual({ recording: null, transcript: null })

        const chat = (yield* send(client, json("POST", conversations(agent.id), { mode: "chat" })))
          .body as Body
        const never = yield* files(chat.workflow_run_id)
        expect(never.transcript.body).toEqual({ detail: `Run ${chat.workflow_run_id} has no transcript` })
        expect(never.recording.status).toBe(404)
        expect(never.recording.body).toEqual({ detail: `Run ${chat.workflow_run_id} has no recording` })

        yield* setRunStatus(org, live.workflow_run_id, "completed")
        const blobs = yield* BlobStore.BlobStore
        yield* blobs.remove(recordingKey)
        yield* blobs.remove(transcriptKey)
        const afterRetention = yield* files(live.workflow_run_id)
        expect(afterRetention.transcript.status).toBe(404)
        expect((afterRetention.transcript.body as Body).detail).toMatch(
          new RegExp(`^The transcript of run ${live.workflow_run_id} .*retention policy`)
        )
        expect(afterRetention.recording.status).toBe(404)
        expect((afterRetention.recording.body as Body).detail).toMatch(
          new RegExp(`^The recording of run ${live.workflow_run_id} .*retention policy`)
        )
      }).pipe(Effect.provide(server))
  )

  it.effect(
    "deleting a call: 204, then every run endpoint is 404, links fail, files gone, billing kept",
    () =>
      Effect.gen(function* () {
        const { apiKey, organization: org } = yield* organization()
        const client = yield* rawClient(apiKey)
        const agent = yield* createAgent(client)
        const { recordingKey, run, transcriptKey } = yield* completedCall(org, agent.id)
        const usage = yield* UsageStore.UsageStore
        yield* usage.record({
          organization_id: org.id,
          run_id: run.workflow_run_id,
          agent_id: run.workflow_id,
          mode: "phone",
          duration_seconds: 65,
          cost: Money.MinorUnits.make(1234),
          currency: "PLN",
          recorded_at: new Date("2026-03-01T12:01:05.000Z")
        })
        const totals = yield* usage.totals(org.id, {})
        const base = `${conversations(agent.public_id)}/${run.workflow_run_id}`
        const links = [
          ((yield* send(client, HttpClientRequest.get(`${base}/recording`))).body as Body).download_url,
          ((yield* send(client, HttpClientRequest.get(`${base}/transcript`))).body as Body).download_url
        ]
        for (const link of links) expect((yield* download(link)).status).toBe(200)

        const deleted = yield* send(client, HttpClientRequest.del(base))
        expect(deleted.status).toBe(204)
        expect(deleted.text).toBe("")

        for (const request of runEndpoints(agent.public_id, run.workflow_run_id)) {
          const response = yield* send(client, request)
          expect(response.status).toBe(404)
          expect(response.body).toEqual({ detail: `Run ${run.workflow_run_id} not found` })
        }
        const list = yield* send(client, HttpClientRequest.get(conversations(agent.id)))
        expect((list.body as Body).total_count).toBe(0)
        for (const link of links) {
          const response = yield* download(link)
          expect(response.status).toBe(404)
          expect(JSON.parse(response.text)).toEqual({ detail: "The file is no longer available" })
        }
        const blobs = yield* BlobStore.BlobStore
        expect(Option.isNone(yield* blobs.get(recordingKey))).toBe(true)
        expect(Option.isNone(yield* blobs.get(transcriptKey))).toBe(true)
        expect(yield* usage.totals(org.id, {})).toEqual(totals)
        expect(totals).toMatchObject({ calls: 1, duration_seconds: 65, cost: 1234 })
      }).pipe(Effect.provide(server))
  )

  it.effect("deleting a live call is 409 and keeps it; an ended or record-only run can be deleted", () =>
    Effect.gen(function* () {
      const { apiKey, organization: org } = yield* organization()
      const client = yield* rawClient(apiKey)
      const agent = yield* createAgent(client)
      for (const status of ["queued", "ringing", "in_progress"] as const) {
        const live = yield* storeRun(org, agent.id, { status })
        const refused = yield* send(
          client,
          HttpClientRequest.del(`${conversations(agent.id)}/${live.workflow_run_id}`)
        )
        expect(refused.status).toBe(409)
        expect(refused.body).toEqual({
          detail: `Run ${live.workflow_run_id} is ${status}; it can be deleted once the call has ended`
        })
        const still = yield* send(
          client,
          HttpClientRequest.get(`${conversations(agent.id)}/${live.workflow_run_id}`)
        )
        expect((still.body as Body).status).toBe(status)
      }
      for (const status of ["busy", "no_answer", "failed", "canceled"] as const) {
        const ended = yield* storeRun(org, agent.id, { status })
        const response = yield* send(
          client,
          HttpClientRequest.del(`${conversations(agent.id)}/${ended.workflow_run_id}`)
        )
        expect(response.status).toBe(204)
      }
      const chat = (yield* send(client, json("POST", conversations(agent.id), { mode: "chat" }))).body as Body
      expect(
        (yield* send(client, HttpClientRequest.del(`${conversations(agent.id)}/${chat.workflow_run_id}`)))
          .status
      ).toBe(204)
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
