/** Conversations over HTTP: a call's cost, transcript, recording and signed links. */
import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { BlobStore, TranscriptFile, TranscriptTurns } from "@voice-agent-platform/core"
import { Effect, Either } from "effect"
import {
  completedCall,
  createAgent,
  download,
  serverOrigin,
  setRunStatus,
  wav
} from "../support/RunFixtures.js"
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"
import { type Body, conversations, locsOf } from "../support/ConversationFixtures.js"

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("conversations over HTTP, %s storage", (_, server) => {
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
        cost: {
          amount: 12.34,
          currency: "PLN",
          breakdown: { telephony: 12.34, language_model: null },
          tokens: { prompt: 0, completion: 0 }
        },
        disposition: "confirmed",
        campaign_id: null,
        summary: null,
        analysis_status: null,
        analysis_error: null,
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
})
