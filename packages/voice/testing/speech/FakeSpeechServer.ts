import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import * as Pcm16Bytes from "@voice-agent-platform/core/voice/Pcm16Bytes.js"
import { Context, Effect, Layer, type Scope } from "effect"
import * as SpeechPattern from "./SpeechPattern.js"

/**
 * A fake text-to-speech provider on 127.0.0.1, in the test's own process, speaking both wire protocols:
 * OpenAI's `POST /v1/audio/speech` (`Authorization: Bearer`, `{model, input, voice, response_format:
 * "pcm"}` → 24 kHz PCM16) and ElevenLabs' `POST /v1/text-to-speech/{voice_id}/stream?output_format=pcm_N`
 * (`xi-api-key`, `{text, model_id}` → PCM16 at N Hz). It checks each protocol's auth header and body as the
 * provider does (with the provider's error bodies, OpenAI's echoing part of the key), records every
 * request, and answers `SpeechPattern.samplesFor(text, rate)` in several chunks, or what a test scripted:
 * an error status, an answer that never comes, or audio that stops coming. Closed with its scope, every
 * connection with it.
 */

/** The keys the fake accepts. */
export const openAiKey = "sk-test-speech-0123456789abcdefghijklmnop"
export const elevenLabsKey = "xi-test-0123456789abcdef0123456789abcdef"

/** The voices the fake's OpenAI accepts (OpenAI's own). */
export const openAiVoices = [
  "alloy",
  "ash",
  "ballad",
  "coral",
  "echo",
  "fable",
  "nova",
  "onyx",
  "sage",
  "shimmer",
  "verse"
]

/** How the audio is sent: the delay before the head, the bytes of each write and the delay between writes. */
export interface Pace {
  readonly firstByteDelayMs?: number
  /** Default 4801: odd, so samples are split across writes. */
  readonly chunkBytes?: number
  /** Default 5; 0: the next turn of the event loop. */
  readonly chunkDelayMs?: number
}

/** An answer a test queues for the next request. */
export type ScriptedAnswer =
  | ({ readonly kind: "speak" } & Pace)
  | {
      readonly kind: "status"
      readonly status: number
      readonly headers?: Readonly<Record<string, string>>
      readonly body?: unknown
    }
  /** Never answers, not even the head. */
  | { readonly kind: "silent" }
  /** Sends the head and the first `bytes` of the audio, then nothing more. */
  | { readonly kind: "stall"; readonly bytes: number }

export interface RecordedRequest {
  readonly protocol: "openai" | "elevenlabs" | "unknown"
  readonly method: string
  readonly path: string
  readonly query: Readonly<Record<string, string>>
  /** Whether the protocol's auth header held the key (the key itself is not recorded). */
  readonly authorized: boolean
  readonly body: unknown
  /** Audio bytes written before the exchange ended. */
  answered_bytes: number
  /** Whether the client closed the connection before the answer ended. */
  client_closed: boolean
}

export interface Running {
  readonly port: number
  /** `http://127.0.0.1:<port>/v1`: `TTS_BASE_URL`. */
  readonly openAiBaseUrl: string
  /** `http://127.0.0.1:<port>`: `ELEVENLABS_BASE_URL`. */
  readonly elevenLabsBaseUrl: string
  /** Queues answers, used once each in order by the next requests. */
  readonly script: (...answers: ReadonlyArray<ScriptedAnswer>) => Effect.Effect<void>
  readonly requests: Effect.Effect<ReadonlyArray<RecordedRequest>>
  /** Forgets queued answers and recorded requests. */
  readonly reset: Effect.Effect<void>
}

export class FakeSpeechServer extends Context.Tag("@voice-agent-platform/voice/FakeSpeechServer")<
  FakeSpeechServer,
  Running
>() {}

const json = (
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {}
) => {
  response.writeHead(status, { "content-type": "application/json", ...headers })
  response.end(JSON.stringify(body))
}

const openAiError = (message: string, type: string, code: string | null, param: string | null = null) => ({
  error: { message, type, code, param }
})

/** Why a request is refused as the provider would refuse it, or the text and rate to speak. */
type Checked =
  | { readonly refuse: { readonly status: number; readonly body: unknown } }
  | { readonly text: string; readonly rate: number }

const checkOpenAi = (request: IncomingMessage, body: unknown): Checked => {
  const auth = request.headers.authorization ?? ""
  if (auth !== `Bearer ${openAiKey}`) {
    const given = auth.replace(/^Bearer /, "")
    return {
      refuse: {
        status: 401,
        body: openAiError(
          `Incorrect API key provided: ${given.slice(0, 6)}***${given.slice(-4)}.`,
          "invalid_request_error",
          "invalid_api_key"
        )
      }
    }
  }
  const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>
  if (typeof b["model"] !== "string" || typeof b["input"] !== "string") {
    return {
      refuse: {
        status: 400,
        body: openAiError("model and input are required", "invalid_request_error", null)
      }
    }
  }
  if (b["input"].length > 4096) {
    return {
      refuse: {
        status: 400,
        body: openAiError(
          "[{'type': 'string_too_long', 'msg': 'String should have at most 4096 characters'}]",
          "invalid_request_error",
          "string_above_max_length",
          "input"
        )
      }
    }
  }
  if (typeof b["voice"] !== "string" || !openAiVoices.includes(b["voice"])) {
    return {
      refuse: {
        status: 400,
        body: openAiError(
          `Invalid value for 'voice': ${String(b["voice"])}.`,
          "invalid_request_error",
          "invalid_value",
          "voice"
        )
      }
    }
  }
  if (b["response_format"] !== "pcm") {
    return {
      refuse: {
        status: 400,
        body: openAiError("this fake serves pcm only", "invalid_request_error", null, "response_format")
      }
    }
  }
  return { text: b["input"], rate: 24_000 }
}

const checkElevenLabs = (request: IncomingMessage, url: URL, voice: string, body: unknown): Checked => {
  if (request.headers["xi-api-key"] !== elevenLabsKey) {
    return {
      refuse: { status: 401, body: { detail: { status: "invalid_api_key", message: "Invalid API key" } } }
    }
  }
  if (!/^[A-Za-z0-9]{20}$/.test(voice)) {
    return {
      refuse: {
        status: 404,
        body: {
          detail: { status: "voice_not_found", message: `A voice with voice_id ${voice} was not found.` }
        }
      }
    }
  }
  const format = /^pcm_(\d+)$/.exec(url.searchParams.get("output_format") ?? "")
  const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>
  if (format === null || typeof b["text"] !== "string" || typeof b["model_id"] !== "string") {
    return {
      refuse: {
        status: 422,
        body: { detail: [{ type: "missing", loc: ["body", "text"], msg: "Field required" }] }
      }
    }
  }
  return { text: b["text"], rate: Number(format[1]) }
}

/** Starts the fake for the scope. */
export const start: Effect.Effect<Running, never, Scope.Scope> = Effect.gen(function* () {
  let queue: Array<ScriptedAnswer> = []
  let recorded: Array<RecordedRequest> = []
  const timers = new Set<ReturnType<typeof setTimeout>>()
  const later = (ms: number, run: () => void) => {
    // no delay: the next turn of the event loop, a separate write all the same
    if (ms <= 0) return void setImmediate(run)
    const timer = setTimeout(() => {
      timers.delete(timer)
      run()
    }, ms)
    timers.add(timer)
  }

  const answer = (request: IncomingMessage, response: ServerResponse, raw: string) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1")
    const elevenLabs = /^\/v1\/text-to-speech\/([^/]+)\/stream$/.exec(url.pathname)
    const protocol =
      url.pathname === "/v1/audio/speech" ? "openai" : elevenLabs !== null ? "elevenlabs" : "unknown"
    let body: unknown = null
    try {
      body = JSON.parse(raw)
    } catch {
      body = raw
    }
    const record: RecordedRequest = {
      protocol,
      method: request.method ?? "",
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      authorized:
        protocol === "openai"
          ? request.headers.authorization === `Bearer ${openAiKey}`
          : request.headers["xi-api-key"] === elevenLabsKey,
      body,
      answered_bytes: 0,
      client_closed: false
    }
    recorded.push(record)
    response.on("close", () => {
      if (!response.writableFinished) record.client_closed = true
    })
    if (request.method !== "POST" || protocol === "unknown") {
      return json(response, 404, {
        error: { message: "Not found", type: "invalid_request_error", code: null }
      })
    }
    const checked =
      protocol === "openai"
        ? checkOpenAi(request, body)
        : checkElevenLabs(request, url, decodeURIComponent(elevenLabs![1]!), body)
    if ("refuse" in checked) return json(response, checked.refuse.status, checked.refuse.body)
    const scripted = queue.shift() ?? { kind: "speak" }
    if (scripted.kind === "status")
      return json(response, scripted.status, scripted.body ?? {}, { ...scripted.headers })
    if (scripted.kind === "silent") return
    const audio = Pcm16Bytes.encode(SpeechPattern.samplesFor(checked.text, checked.rate))
    const pace: Pace = scripted.kind === "speak" ? scripted : {}
    const size = Math.max(1, pace.chunkBytes ?? 4801)
    const end = scripted.kind === "stall" ? Math.min(scripted.bytes, audio.length) : audio.length
    const write = (at: number) => {
      if (response.destroyed) return
      if (at >= end) {
        if (scripted.kind !== "stall") response.end()
        return
      }
      const part = audio.subarray(at, Math.min(end, at + size))
      response.write(part)
      record.answered_bytes += part.length
      later(pace.chunkDelayMs ?? 5, () => write(at + part.length))
    }
    later(pace.firstByteDelayMs ?? 0, () => {
      if (response.destroyed) return
      response.writeHead(200, { "content-type": "application/octet-stream" })
      response.flushHeaders()
      write(0)
    })
  }

  const server = createServer((request, response) => {
    let raw = ""
    request.setEncoding("utf8")
    request.on("data", (part: string) => (raw += part))
    request.on("end", () => answer(request, response, raw))
  })
  const port = yield* Effect.acquireRelease(
    Effect.async<number>((resume) => {
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed((server.address() as AddressInfo).port)))
    }),
    () =>
      Effect.async<void>((resume) => {
        for (const timer of timers) clearTimeout(timer)
        timers.clear()
        server.close(() => resume(Effect.void))
        server.closeAllConnections()
      })
  )
  const origin = `http://127.0.0.1:${port}`
  return {
    port,
    openAiBaseUrl: `${origin}/v1`,
    elevenLabsBaseUrl: origin,
    script: (...answers) => Effect.sync(() => void queue.push(...answers)),
    requests: Effect.sync(() => recorded.slice()),
    reset: Effect.sync(() => {
      queue = []
      recorded = []
    })
  }
})

/** One fake for every test under a `layer(…)` block, closed after them. */
export const layer: Layer.Layer<FakeSpeechServer> = Layer.scoped(FakeSpeechServer, start)
