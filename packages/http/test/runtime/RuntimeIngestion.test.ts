import { HttpApiBuilder, HttpClient, HttpClientRequest } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { DownloadLinks, InMemory, WavFile } from "@voice-agent-platform/core"
import { Effect, Either, Layer, Option, TestClock } from "effect"
import * as AppLayer from "../../src/AppLayer.js"
import * as OperatorAuthentication from "../../src/middleware/OperatorAuthentication.js"
import { download } from "../support/RunFixtures.js"
import {
  json,
  organization,
  rawClient,
  runtimeToken,
  send,
  TestServer,
  TestServerOverSql,
  loopbackAllowed
} from "../support/TestServer.js"

// 12:00 in Warsaw (CET, UTC+1): inside calling hours.
const warsawNoon = "2026-02-10T11:00:00.000Z"
const at = (seconds: number) => new Date(new Date(warsawNoon).getTime() + seconds * 1000).toISOString()

type Body = Record<string, any>

/** The plain client with a bearer token (or none) on every request. */
const runtimeClient = (token: string | null = runtimeToken) =>
  Effect.map(HttpClient.HttpClient, (client) =>
    token === null ? client : HttpClient.mapRequest(client, HttpClientRequest.bearerToken(token))
  )

/** A run placed with an agent that greets by name and gathers data; the test telephony only records it. */
const placedRun = Effect.gen(function* () {
  yield* TestClock.setTime(new Date(warsawNoon).getTime())
  const owner = yield* organization()
  const client = yield* rawClient(owner.apiKey)
  const created = yield* send(
    client,
    json("POST", "/api/v1/agents/from-script", {
      agent: {
        greeting: "Hello {{initial_context.first_name}}, this is the clinic.",
        agent_goal: "Confirm the appointment",
        data_fields: [{ name: "confirmed", type: "boolean" }, "email"]
      }
    })
  )
  expect(created.status).toBe(200)
  const agent = created.body as Body
  const placed = yield* send(
    client,
    json("POST", `/api/v1/agents/${agent.public_id}/calls`, {
      phone_number: "+48 500 100 200",
      initial_context: { first_name: "Ola" }
    })
  )
  expect(placed.status).toBe(200)
  const runId = (placed.body as Body).workflow_run_id as number
  return { client, agent, runId, runPath: `/api/v1/agents/${agent.public_id}/conversations/${runId}` }
})

const events = (runId: number, body: unknown) => json("POST", `/runtime/v1/runs/${runId}/events`, body)

const recording = (runId: number, bytes: Uint8Array, contentType = "audio/wav") =>
  HttpClientRequest.put(`/runtime/v1/runs/${runId}/recording`).pipe(
    HttpClientRequest.bodyUint8Array(bytes, contentType)
  )

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("voice-runtime ingestion, %s storage", (_, server) => {
  it.effect("drives a placed call from the first ring to a completed run with transcript and recording", () =>
    Effect.gen(function* () {
      const { agent, client, runId, runPath } = yield* placedRun
      const runtime = yield* runtimeClient()

      const call = yield* send(runtime, HttpClientRequest.get(`/runtime/v1/runs/${runId}`))
      expect(call.status).toBe(200)
      expect(call.body).toEqual({
        workflow_run_id: runId,
        workflow_id: agent.id,
        status: "queued",
        phone_number: "+48500100200",
        initial_context: { first_name: "Ola", phone_number: "+48500100200" },
        gathered_context: {},
        first_message: "Hello Ola, this is the clinic.",
        system_prompt: expect.any(String),
        language: expect.any(String),
        gathered_fields: [
          { name: "confirmed", description: null, type: "boolean" },
          { name: "email", description: "email", type: "string" }
        ],
        max_call_duration_seconds: 600,
        created_at: warsawNoon
      })
      expect((call.body as Body).system_prompt).toContain("Confirm the appointment")

      const started = yield* send(runtime, events(runId, { type: "started" }))
      expect(started.status).toBe(200)
      expect(started.body).toEqual({
        workflow_run_id: runId,
        status: "ringing",
        results: [{ type: "started", outcome: "applied" }]
      })

      const talked = yield* send(
        runtime,
        events(runId, [
          { type: "answered" },
          { type: "ringing" },
          { type: "fragment", role: "assistant", text: "Hello Ola, this is the clinic.", timestamp: at(1) },
          { type: "fragment", role: "user", text: "Hi, yes.", timestamp: at(3) },
          { type: "gathered", values: { confirmed: true, email: "ola@example.com" } },
          { type: "log", level: "info", message: "runtime says hi" }
        ])
      )
      expect(talked.status).toBe(200)
      expect(talked.body).toEqual({
        workflow_run_id: runId,
        status: "in_progress",
        results: [
          { type: "answered", outcome: "applied" },
          { type: "ringing", outcome: "ignored" },
          { type: "fragment", outcome: "applied" },
          { type: "fragment", outcome: "applied" },
          { type: "gathered", outcome: "applied" },
          { type: "log", outcome: "applied" }
        ]
      })

      const audio = WavFile.generate(1)
      const uploaded = yield* send(runtime, recording(runId, audio))
      expect(uploaded.status).toBe(200)
      expect(uploaded.body).toEqual({
        workflow_run_id: runId,
        status: "in_progress",
        results: [{ type: "recording", outcome: "applied" }]
      })

      const ended = yield* send(
        runtime,
        events(runId, { type: "ended", status: "completed", duration_seconds: 61.2 })
      )
      expect(ended.status).toBe(200)
      expect(ended.body).toEqual({
        workflow_run_id: runId,
        status: "completed",
        results: [{ type: "ended", outcome: "applied" }]
      })

      // the organization sees the completed run, its transcript and a downloadable recording
      const run = yield* send(client, HttpClientRequest.get(runPath))
      expect(run.status).toBe(200)
      expect(run.body).toMatchObject({
        status: "completed",
        duration_seconds: 62,
        gathered_context: { confirmed: true, email: "ola@example.com" },
        logs: [{ level: "info", message: "runtime says hi" }],
        files: {
          recording: expect.stringMatching(/^http:\/\/.+\/api\/v1\/files\/download\?/),
          transcript: expect.stringMatching(/^http:\/\/.+\/api\/v1\/files\/download\?/)
        }
      })
      const transcript = yield* send(client, HttpClientRequest.get(`${runPath}/transcript`))
      expect(transcript.status).toBe(200)
      expect(((transcript.body as Body).turns as ReadonlyArray<Body>).map((t) => [t.role, t.text])).toEqual([
        ["assistant", "Hello Ola, this is the clinic."],
        ["user", "Hi, yes."]
      ])
      const file = yield* send(client, HttpClientRequest.get(`${runPath}/recording`))
      expect(file.status).toBe(200)
      const wav = yield* download((file.body as Body).download_url)
      expect(wav.status).toBe(200)
      expect(wav.headers["content-type"]).toBe("audio/wav")
      expect(wav.bytes).toEqual(audio)
      expect(Either.isRight(WavFile.parse(wav.bytes))).toBe(true)

      // after the end nothing more is taken
      for (const request of [
        events(runId, { type: "log", level: "info", message: "late" }),
        events(runId, [{ type: "ended", status: "completed", duration_seconds: 1 }]),
        recording(runId, audio)
      ]) {
        const late = yield* send(runtime, request)
        expect(late.status).toBe(409)
        expect(late.body).toEqual({
          detail: `Run ${runId} has already ended (completed); it takes no more call events`
        })
      }
    }).pipe(Effect.provide(server))
  )

  it.effect("applies a batch all or nothing: an event after the end refuses the whole batch", () =>
    Effect.gen(function* () {
      const { runId } = yield* placedRun
      const runtime = yield* runtimeClient()
      const refused = yield* send(
        runtime,
        events(runId, [
          { type: "answered" },
          { type: "ended", status: "completed", duration_seconds: 3 },
          { type: "log", level: "info", message: "too late" }
        ])
      )
      expect(refused.status).toBe(409)
      expect(refused.body).toEqual({
        detail: `Run ${runId} has already ended (completed); it takes no more call events`
      })
      const call = yield* send(runtime, HttpClientRequest.get(`/runtime/v1/runs/${runId}`))
      expect(call.body).toMatchObject({ status: "queued", gathered_context: {} })
    }).pipe(Effect.provide(server))
  )

  it.effect(
    "answers 404 for an unknown run, 422 for invalid events and recordings, 415 and 413 for bodies it does not take",
    () =>
      Effect.gen(function* () {
        const { runId } = yield* placedRun
        const runtime = yield* runtimeClient()
        for (const request of [
          HttpClientRequest.get("/runtime/v1/runs/999999"),
          events(999999, { type: "answered" }),
          recording(999999, WavFile.generate(0.1))
        ]) {
          const missing = yield* send(runtime, request)
          expect(missing.status).toBe(404)
          expect(missing.body).toEqual({ detail: "Run 999999 not found" })
        }

        const unknownType = yield* send(runtime, events(runId, { type: "exploded" }))
        expect(unknownType.status).toBe(422)
        const extra = yield* send(runtime, events(runId, { type: "answered", when: "now" }))
        expect(extra.status).toBe(422)
        const tooLong = yield* send(
          runtime,
          events(runId, { type: "ended", status: "completed", duration_seconds: 86_401 })
        )
        expect(tooLong.status).toBe(422)
        const empty = yield* send(runtime, events(runId, []))
        expect(empty.status).toBe(422)

        const notWav = yield* send(runtime, recording(runId, new TextEncoder().encode("not a wav file")))
        expect(notWav.status).toBe(422)
        expect(notWav.body).toEqual({
          detail: [
            {
              loc: ["body"],
              msg: expect.stringContaining(`The recording of run ${runId} is not a PCM WAV file`),
              type: "value_error.recording"
            }
          ]
        })
        const wrongType = yield* send(runtime, recording(runId, WavFile.generate(0.1), "application/json"))
        expect(wrongType.status).toBe(415)
        expect(wrongType.body).toEqual({
          detail:
            "This operation takes audio/wav, audio/x-wav, audio/wave, audio/vnd.wave, not application/json"
        })
        // a recording over 200 MB is 413 as soon as the declared length says so, nothing read
        const tooLarge = yield* send(
          runtime,
          recording(runId, new Uint8Array(0)).pipe(
            HttpClientRequest.setHeader("content-length", String(200 * 1024 * 1024 + 1))
          )
        )
        expect(tooLarge.status).toBe(413)
        expect(tooLarge.body).toEqual({ detail: `The body must be at most ${200 * 1024 * 1024} bytes` })
        // nothing of it was applied
        const call = yield* send(runtime, HttpClientRequest.get(`/runtime/v1/runs/${runId}`))
        expect((call.body as Body).status).toBe("queued")
      }).pipe(Effect.provide(server))
  )

  it.effect("takes only the runtime token: none or a wrong one is 401, an organization key too", () =>
    Effect.gen(function* () {
      const { runId } = yield* placedRun
      const owner = yield* organization()
      const withKey = yield* rawClient(owner.apiKey)
      for (const client of [yield* runtimeClient(null), yield* runtimeClient("wrong-token"), withKey]) {
        for (const request of [
          HttpClientRequest.get(`/runtime/v1/runs/${runId}`),
          events(runId, { type: "answered" }),
          recording(runId, WavFile.generate(0.1))
        ]) {
          const refused = yield* send(client, request)
          expect(refused.status).toBe(401)
          expect(refused.body).toEqual({ detail: "Invalid runtime token" })
          expect(refused.headers["x-request-id"]).toBeDefined()
        }
      }
    }).pipe(Effect.provide(server))
  )

  it.effect("does not exist without RUNTIME_TOKEN: every route is 404", () =>
    Effect.gen(function* () {
      const runtime = yield* runtimeClient()
      for (const request of [
        HttpClientRequest.get("/runtime/v1/runs/1"),
        events(1, { type: "answered" }),
        recording(1, WavFile.generate(0.1))
      ]) {
        const answer = yield* send(runtime, request)
        expect(answer.status).toBe(404)
        expect(answer.body).toEqual({ detail: "Not Found" })
      }
    }).pipe(
      Effect.provide(
        HttpApiBuilder.serve().pipe(
          Layer.provide(AppLayer.layer),
          Layer.provide(loopbackAllowed),
          Layer.provide(OperatorAuthentication.layerToken(Option.none())),
          Layer.provide(DownloadLinks.layerRandom),
          Layer.provideMerge(InMemory.layer),
          Layer.provideMerge(NodeHttpServer.layerTest)
        )
      )
    )
  )
})
