import type { HttpClient } from "@effect/platform"
import { HttpApiBuilder, HttpClientRequest } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import {
  BlobStore,
  DownloadLinks,
  InMemory,
  SimulatedEngine,
  SimulationConfig,
  TranscriptFile,
  TranscriptTurns,
  WavFile
} from "@voice-agent-platform/core"
import { Effect, Either, Layer, Option, TestClock } from "effect"
import * as AppLayer from "../../src/AppLayer.js"
import * as OperatorAuthentication from "../../src/middleware/OperatorAuthentication.js"
import { download, runEndpoints } from "../support/RunFixtures.js"
import * as MemoryBlobStore from "@voice-agent-platform/core/memory/MemoryBlobStore.js"
import { json, organization, rawClient, send, storesOverSql, loopbackAllowed } from "../support/TestServer.js"

/**
 * Calls that live a real life: a real server over the in-memory engine with the simulated voice runtime
 * (calls talk for 0.4 s after ringing for 0.1 s), timed by the test clock.
 */
const simulatedServer = <A, E>(engine: Layer.Layer<A, E, SimulationConfig.SimulationConfig>) =>
  HttpApiBuilder.serve().pipe(
    Layer.provide(AppLayer.layer),
    Layer.provide(loopbackAllowed),
    Layer.provide(OperatorAuthentication.layerToken(Option.none())),
    Layer.provide(DownloadLinks.layerRandom),
    Layer.provideMerge(engine.pipe(Layer.provide(SimulationConfig.layer(0.4)))),
    Layer.provideMerge(NodeHttpServer.layerTest)
  )

// 12:00 in Warsaw (CET, UTC+1): inside calling hours.
const warsawNoon = "2026-02-10T11:00:00.000Z"

type Body = Record<string, any>

/** An organization with an agent that follows a plan and gathers data, and a client holding its key. */
const setup = (options: { readonly outbound_channels?: number } = {}) =>
  Effect.gen(function* () {
    yield* TestClock.setTime(new Date(warsawNoon).getTime())
    const owner = yield* organization(options)
    const client = yield* rawClient(owner.apiKey)
    const created = yield* send(
      client,
      json("POST", "/api/v1/agents/from-script", {
        agent: {
          greeting: "Hello {{initial_context.first_name}}, this is the clinic.",
          agent_goal: "Confirm the appointment",
          conversation_structure: ["Confirm the visit on Tuesday"],
          data_fields: [{ name: "confirmed", type: "boolean" }, "email"]
        }
      })
    )
    expect(created.status).toBe(200)
    return { ...owner, client, agent: created.body as { readonly id: number; readonly public_id: string } }
  })

const place = (client: HttpClient.HttpClient, agent: string, phone_number: string) =>
  send(
    client,
    json("POST", `/api/v1/agents/${agent}/calls`, { phone_number, initial_context: { first_name: "Ola" } })
  )

/** Reads the run until it has ended; the call's fiber may still be finishing after the clock moved. */
const awaitEnd = (client: HttpClient.HttpClient, agent: string, runId: number) =>
  Effect.gen(function* () {
    for (let i = 0; i < 200; i++) {
      const run = yield* send(client, HttpClientRequest.get(`/api/v1/agents/${agent}/conversations/${runId}`))
      if (!["queued", "ringing", "in_progress"].includes((run.body as Body).status)) return run.body as Body
    }
    return yield* Effect.dieMessage(`run ${runId} never ended`)
  })

describe.each([
  ["in-memory", simulatedServer(InMemory.layerSimulated), true],
  [
    "SQL (embedded PostgreSQL)",
    simulatedServer(SimulatedEngine.layer(storesOverSql, MemoryBlobStore.layer)),
    false
  ]
] as const)(
  "a call's life over HTTP, on the simulated runtime, %s storage",
  (_, SimulatedServer, exactTimes) => {
    // In memory the call's steps take no real time, so they land exactly on the test clock's instants (it
    // ends 0.5 s after it was placed). Over a database each step also waits for real I/O, during which the
    // test clock may already have moved on: the call ends somewhere in the second the clock is moved by.
    const endedAt = (iso: string) => {
      if (exactTimes) expect(iso).toBe("2026-02-10T11:00:00.500Z")
      const after = Date.parse(iso) - Date.parse(warsawNoon)
      expect(after).toBeGreaterThanOrEqual(500)
      expect(after).toBeLessThanOrEqual(1000)
    }
    it.effect("is placed, rings, talks, ends completed with its files and bill, and can be erased", () =>
      Effect.gen(function* () {
        const { agent, client } = yield* setup()
        const placed = yield* place(client, agent.public_id, "+48 500 100 200")
        expect(placed.status).toBe(200)
        expect(placed.body).toMatchObject({ status: "queued", phone_number: "+48500100200" })
        const runId = (placed.body as Body).workflow_run_id as number
        const runPath = `/api/v1/agents/${agent.public_id}/conversations/${runId}`

        // while the call is live its files cannot be read
        const live = yield* send(client, HttpClientRequest.get(`${runPath}/transcript`))
        expect(live.status).toBe(404)

        yield* TestClock.adjust("1 second")
        const run = yield* awaitEnd(client, agent.public_id, runId)

        const list = yield* send(
          client,
          HttpClientRequest.get(`/api/v1/agents/${agent.public_id}/conversations`)
        )
        expect((list.body as Body).items).toEqual([
          {
            workflow_run_id: runId,
            workflow_id: agent.id,
            mode: "phone",
            status: "completed",
            initial_context: { first_name: "Ola", phone_number: "+48500100200" },
            gathered_context: { confirmed: true, email: "jan.kowalski@example.com" },
            duration_seconds: 1,
            created_at: warsawNoon,
            ended_at: expect.any(String)
          }
        ])
        const ended = (list.body as Body).items[0].ended_at as string
        endedAt(ended)

        expect(run).toMatchObject({
          status: "completed",
          phone_number: "+48500100200",
          duration_seconds: 1,
          cost: { amount: 0.25, currency: "PLN" },
          sms: [{ to: "+48500100200", text: expect.any(String), sent_at: ended }],
          logs: [{ level: "info", message: expect.stringContaining("Simulated call completed") }],
          files: {
            recording: expect.stringMatching(/^http:\/\/.+\/api\/v1\/files\/download\?/),
            transcript: expect.stringMatching(/^http:\/\/.+\/api\/v1\/files\/download\?/)
          }
        })

        // the transcript's turns are the merge of the raw file its link downloads
        const transcript = yield* send(client, HttpClientRequest.get(`${runPath}/transcript`))
        expect(transcript.status).toBe(200)
        const turns = (transcript.body as Body).turns as ReadonlyArray<Body>
        expect(turns[0]).toMatchObject({
          role: "assistant",
          text: expect.stringContaining("Hello Ola, this is the clinic.")
        })
        expect(turns.map((t) => t.text).join(" ")).toContain("Confirm the visit on Tuesday")
        const raw = yield* download((transcript.body as Body).download_url)
        expect(raw.status).toBe(200)
        expect(raw.headers["content-type"]).toBe("text/plain; charset=utf-8")
        const merged = TranscriptTurns.merge(Either.getOrThrow(TranscriptFile.parse(raw.text)))
        expect(turns).toEqual(
          merged.map((turn) => ({ ...turn, start: turn.start.toISOString(), end: turn.end.toISOString() }))
        )
        // the file the run links is the same file
        expect((yield* download(run.files.transcript)).text).toBe(raw.text)

        // the recording is a valid WAV of the call's talk time
        const recording = yield* send(client, HttpClientRequest.get(`${runPath}/recording`))
        expect(recording.status).toBe(200)
        expect((recording.body as Body).content_type).toBe("audio/wav")
        const audio = yield* download((recording.body as Body).download_url)
        expect(audio.status).toBe(200)
        expect(audio.headers["content-type"]).toBe("audio/wav")
        expect(Either.getOrThrow(WavFile.parse(audio.bytes))).toMatchObject({
          audio_format: 1,
          sample_rate: 8000,
          channels: 1,
          bits_per_sample: 16,
          data_bytes: 0.4 * 16_000
        })

        const usageBefore = yield* send(client, HttpClientRequest.get("/api/v1/usage"))
        expect(usageBefore.body).toMatchObject({
          calls: 1,
          duration_seconds: 1,
          cost_pln: 0.25,
          currency: "PLN"
        })

        const deleted = yield* send(client, HttpClientRequest.del(runPath))
        expect(deleted.status).toBe(204)

        for (const request of runEndpoints(agent.public_id, runId)) {
          const answer = yield* send(client, request)
          expect(answer.status).toBe(404)
          expect(answer.body).toEqual({ detail: `Run ${runId} not found` })
        }
        const emptied = yield* send(
          client,
          HttpClientRequest.get(`/api/v1/agents/${agent.public_id}/conversations`)
        )
        expect((emptied.body as Body).total_count).toBe(0)
        // links handed out before the delete lead nowhere
        for (const link of [
          run.files.recording,
          run.files.transcript,
          (recording.body as Body).download_url,
          (transcript.body as Body).download_url
        ]) {
          const gone = yield* download(link)
          expect(gone.status).toBe(404)
          expect(gone.text).toBe(JSON.stringify({ detail: "The file is no longer available" }))
          // and the file is gone from the store itself
          const key = new URL(link, "http://localhost").searchParams.get("key")!
          expect(Option.isNone(yield* (yield* BlobStore.BlobStore).get(key))).toBe(true)
        }
        // billing keeps the call
        const usageAfter = yield* send(client, HttpClientRequest.get("/api/v1/usage"))
        expect(usageAfter.body).toEqual(usageBefore.body)
      }).pipe(Effect.provide(SimulatedServer))
    )

    it.effect("ends the test numbers busy, unanswered and failed, with no files and nothing billed", () =>
      Effect.gen(function* () {
        const { agent, client } = yield* setup()
        const outcomes: Array<[string, string]> = [
          ["+48 500 000 486", "busy"],
          ["+48 500 000 487", "no_answer"],
          ["+48 500 000 488", "failed"]
        ]
        const placed = yield* Effect.forEach(outcomes, ([number]) => place(client, agent.public_id, number))
        yield* TestClock.adjust("1 second")
        for (const [i, [, status]] of outcomes.entries()) {
          const run = yield* awaitEnd(client, agent.public_id, (placed[i]!.body as Body).workflow_run_id)
          expect(run).toMatchObject({
            status,
            duration_seconds: 0,
            cost: { amount: 0, currency: "PLN" },
            files: { recording: null, transcript: null },
            gathered_context: {},
            sms: []
          })
          const transcript = yield* send(
            client,
            HttpClientRequest.get(
              `/api/v1/agents/${agent.public_id}/conversations/${run.workflow_run_id}/transcript`
            )
          )
          expect(transcript.status).toBe(404)
        }
        const usage = yield* send(client, HttpClientRequest.get("/api/v1/usage"))
        expect(usage.body).toMatchObject({ calls: 3, duration_seconds: 0, cost_pln: 0 })
      }).pipe(Effect.provide(SimulatedServer))
    )

    it.effect("accepts exactly as many simultaneous calls as channels, and more once they have ended", () =>
      Effect.gen(function* () {
        const { agent, client } = yield* setup({ outbound_channels: 2 })
        const answers = yield* Effect.all(
          Array.from({ length: 10 }, (_, i) => place(client, agent.public_id, `+48500100${String(200 + i)}`)),
          { concurrency: "unbounded" }
        )
        const accepted = answers.filter((a) => a.status === 200)
        const refused = answers.filter((a) => a.status === 429)
        expect(accepted).toHaveLength(2)
        expect(refused).toHaveLength(8)
        for (const answer of refused) {
          expect(answer.headers["retry-after"]).toBe("30")
          expect(answer.body).toEqual({
            detail: "All 2 outbound channels of the organization are busy; retry after 30 seconds"
          })
        }
        // still busy while both calls talk
        expect((yield* place(client, agent.public_id, "+48500100300")).status).toBe(429)

        yield* TestClock.adjust("1 second")
        for (const answer of accepted) {
          const run = yield* awaitEnd(client, agent.public_id, (answer.body as Body).workflow_run_id)
          expect(run.status).toBe("completed")
        }
        const again = yield* Effect.all(
          [place(client, agent.public_id, "+48500100301"), place(client, agent.public_id, "+48500100302")],
          { concurrency: "unbounded" }
        )
        expect(again.map((a) => a.status)).toEqual([200, 200])
      }).pipe(Effect.provide(SimulatedServer))
    )
  }
)
