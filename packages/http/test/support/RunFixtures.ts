import { HttpClient, HttpClientRequest, HttpServer } from "@effect/platform"
import { AgentIds, BlobStore, Money, RunId, Runs, RunStore, Transcripts } from "@voice-agent-platform/core"
import type { Organization, Run, Transcript } from "@voice-agent-platform/core"
import { Fixtures } from "@voice-agent-platform/core/testing"
import { Effect, Option } from "effect"
import { json, send } from "./TestServer.js"

/** A tiny valid WAV file: 16-bit mono PCM at 8 kHz, eight samples. */
export const wav: Uint8Array = (() => {
  const samples = [0, 1000, 2000, 1000, 0, -1000, -2000, -1000]
  const bytes = new Uint8Array(44 + samples.length * 2)
  const view = new DataView(bytes.buffer)
  const ascii = (offset: number, text: string) =>
    [...text].forEach((c, i) => view.setUint8(offset + i, c.charCodeAt(0)))
  ascii(0, "RIFF")
  view.setUint32(4, 36 + samples.length * 2, true)
  ascii(8, "WAVE")
  ascii(12, "fmt ")
  view.setUint32(16, 16, true)
  view.setUint16(20, 1, true)
  view.setUint16(22, 1, true)
  view.setUint32(24, 8000, true)
  view.setUint32(28, 16000, true)
  view.setUint16(32, 2, true)
  view.setUint16(34, 16, true)
  ascii(36, "data")
  view.setUint32(40, samples.length * 2, true)
  samples.forEach((sample, i) => view.setInt16(44 + i * 2, sample, true))
  return bytes
})()

const at = (seconds: number) => new Date(Date.UTC(2026, 2, 1, 12, 0, seconds))

/** What the voice runtime reported: two agent fragments, two caller fragments, one more agent fragment. */
export const fragments: ReadonlyArray<Transcript.TranscriptFragment> = [
  { role: "assistant", text: "Hello, this is the clinic.", timestamp: at(0) },
  { role: "assistant", text: "Is this a good time?", timestamp: at(2) },
  { role: "user", text: "Yes.", timestamp: at(4) },
  { role: "user", text: "Go ahead.", timestamp: at(5) },
  { role: "assistant", text: "Your appointment is tomorrow at ten.", timestamp: at(7) }
]

/** An agent made through the API; answers its public id and number. */
export const createAgent = (client: HttpClient.HttpClient, name = "Clinic") =>
  Effect.map(
    send(
      client,
      json("POST", "/api/v1/agents/from-script", {
        agent: { greeting: "Hello, this is the clinic.", agent_goal: "Confirm appointments" },
        agent_name: name
      })
    ),
    (response) => response.body as { readonly id: number; readonly public_id: string }
  )

/** A phone run stored directly in the engine, as the voice runtime would leave it. */
export const storeRun = (
  organization: Organization.Organization,
  agentId: number,
  overrides: Partial<Parameters<typeof Fixtures.newRun>[2]> = {}
) =>
  Effect.flatMap(RunStore.RunStore, (runs) =>
    runs.insert(
      Fixtures.newRun(organization.id, AgentIds.AgentId.make(agentId), overrides),
      new Date("2026-03-01T12:00:00.000Z")
    )
  )

/**
 * A completed call with everything a call leaves: duration, cost, gathered data, SMS, logs, a transcript
 * saved through the core `Transcripts` service and a WAV recording put in the `BlobStore`.
 */
export const completedCall = (organization: Organization.Organization, agentId: number) =>
  Effect.gen(function* () {
    const stored = yield* storeRun(organization, agentId, {
      status: "completed",
      duration_seconds: 65,
      cost: Money.MinorUnits.make(1234),
      gathered_context: { confirmed: true },
      disposition: "confirmed",
      sms: [{ to: "+48500000100", text: "See you tomorrow", sent_at: at(70) }],
      logs: [{ timestamp: at(1), level: "info", message: "call answered" }],
      ended_at: at(65)
    })
    const runId = stored.workflow_run_id
    const transcriptKey = yield* (yield* Transcripts.Transcripts).save(organization.id, runId, fragments)
    const recordingKey = Runs.recordingKey(organization.id, runId)
    yield* (yield* BlobStore.BlobStore).put(recordingKey, {
      bytes: wav,
      content_type: Runs.recordingContentType
    })
    const run = yield* (yield* RunStore.RunStore).update(organization.id, runId, {
      files: { recording: recordingKey, transcript: transcriptKey }
    })
    return { run: Option.getOrElse(run, () => stored), recordingKey, transcriptKey }
  })

/** The origin links point to without PUBLIC_BASE_URL: where the test server listens (every interface: `localhost`). */
export const serverOrigin = Effect.map(HttpServer.HttpServer, (server) =>
  server.address._tag === "TcpAddress"
    ? `http://${["0.0.0.0", "::"].includes(server.address.hostname) ? "localhost" : server.address.hostname}:${server.address.port}`
    : "http://localhost"
)

/** Follows an absolute link on the test server with no API key; answers status, headers and bytes. */
export const download = (url: string, headers: Record<string, string> = {}) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const parsed = new URL(url)
    const response = yield* client.execute(
      HttpClientRequest.get(parsed.pathname + parsed.search).pipe(HttpClientRequest.setHeaders(headers))
    )
    const bytes = new Uint8Array(yield* response.arrayBuffer)
    return {
      status: response.status,
      headers: response.headers,
      bytes,
      text: new TextDecoder().decode(bytes)
    }
  }).pipe(Effect.scoped)

/** The run endpoints of one run, for checks that every one of them answers alike. */
export const runEndpoints = (agent: string, runId: number) => [
  HttpClientRequest.get(`/api/v1/agents/${agent}/conversations/${runId}`),
  HttpClientRequest.get(`/api/v1/agents/${agent}/conversations/${runId}/transcript`),
  HttpClientRequest.get(`/api/v1/agents/${agent}/conversations/${runId}/recording`),
  HttpClientRequest.del(`/api/v1/agents/${agent}/conversations/${runId}`)
]

/** Moves a stored run to another status, as the voice runtime would. */
export const setRunStatus = (organization: Organization.Organization, runId: number, status: Run.RunStatus) =>
  Effect.flatMap(RunStore.RunStore, (runs) =>
    runs.update(organization.id, RunId.RunId.make(runId), { status })
  )
