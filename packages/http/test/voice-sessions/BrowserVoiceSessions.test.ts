import { describe, expect, it } from "@effect/vitest"
import {
  BrowserSessionLimits,
  MemoryMediaSession,
  Pcm16Bytes,
  StreamToken,
  WavFile
} from "@voice-agent-platform/core"
import { FakeOpenAiServer } from "@voice-agent-platform/language-models/testing"
import { BrowserSocketMessages } from "@voice-agent-platform/voice"
import { ConfigProvider, Effect, Either, Layer } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { connect } from "node:net"
import { join } from "node:path"
import WebSocket from "ws"
import * as Server from "../../src/server/Server.js"
import { freePort } from "../support/ServerProcesses.js"

/**
 * The browser voice session (`mode: webrtc`) end to end through the bundled server (`Server.layer` over its
 * embedded database, simulated telephony, the embedded speech-to-text and text-to-speech, the model a
 * fake): the run's creation gives the socket, a ws client plays the browser.
 */

type Body = Record<string, any>

const apiKey = `vap_${"W".repeat(40)}`

const started = Effect.gen(function* () {
  const model = yield* FakeOpenAiServer.start
  const port = yield* Effect.promise(() => freePort())
  const dataDir = yield* Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "vap-browser-"))),
    (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
  )
  const env = {
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    BOOTSTRAP_API_KEY: apiKey,
    LLM_PROVIDER: "openai",
    LLM_BASE_URL: model.baseUrl,
    LLM_API_KEY: "sk-test-0123456789abcdefghijklmnopqrstuvwxyz",
    LLM_MODEL: "fake-model-1"
  }
  yield* Layer.build(Server.layer).pipe(
    Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))
  )
  return { model, origin: `http://127.0.0.1:${port}`, port }
})

const api = (origin: string, method: string, path: string, body?: unknown) =>
  Effect.promise(async () => {
    const response = await fetch(`${origin}/api/v1${path}`, {
      method,
      headers: { "X-API-Key": apiKey, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    return { status: response.status, body: (text === "" ? null : JSON.parse(text)) as Body }
  })

/** The browser's side of a session socket: what it received, in order. */
interface Browser {
  readonly socket: WebSocket
  readonly audio: Array<Uint8Array>
  readonly messages: Array<BrowserSocketMessages.Outbound>
  readonly closed: () => number | null
}

/** Opens `url`; a refused upgrade is the status it was answered with. */
const open = (url: string) =>
  Effect.acquireRelease(
    Effect.async<Either.Either<Browser, number>>((resume) => {
      const socket = new WebSocket(url)
      const audio: Array<Uint8Array> = []
      const messages: Array<BrowserSocketMessages.Outbound> = []
      let closed: number | null = null
      socket.on("message", (data, isBinary) => {
        if (isBinary) audio.push(new Uint8Array(data as Buffer))
        else
          messages.push(Either.getOrThrow(BrowserSocketMessages.decodeOutbound((data as Buffer).toString())))
      })
      socket.on("close", (code) => void (closed = code))
      socket.on("open", () =>
        resume(Effect.succeed(Either.right({ socket, audio, messages, closed: () => closed })))
      )
      socket.on("unexpected-response", (_request, response) => {
        resume(Effect.succeed(Either.left(response.statusCode ?? 0)))
        socket.terminate()
      })
      socket.on("error", () => resume(Effect.succeed(Either.left(0))))
    }),
    (opened) => Effect.sync(() => Either.map(opened, (browser) => browser.socket.terminate()))
  )

const until = (check: () => boolean, what: string) =>
  Effect.gen(function* () {
    for (let i = 0; i < 1000; i++) {
      if (check()) return
      yield* Effect.sleep("20 millis")
    }
    return yield* Effect.dieMessage(`never: ${what}`)
  })

/** Words the embedded speech-to-text hears, as the browser's 16 kHz PCM16 bytes. */
const spoken = (text: string) => Pcm16Bytes.encode(MemoryMediaSession.speechSamples(text))

describe("browser voice sessions through the server", { timeout: 120_000 }, () => {
  it.scopedLive(
    "webrtc: the session's socket, a turn, end_call, the run ended with transcript and recording",
    () =>
      Effect.gen(function* () {
        const { model, origin, port } = yield* started
        const created = yield* api(origin, "POST", "/agents/from-script", {
          agent: { greeting: "Hello, this is the clinic.", agent_goal: "Confirm the appointment" }
        })
        const agent = created.body.public_id as string
        const tool = yield* api(origin, "POST", "/tools", {
          name: "End call",
          definition: { type: "end_call", config: {} }
        })
        yield* api(origin, "PATCH", `/agents/${agent}`, { tools: [tool.body.tool_uuid] })

        // a chat has no session; a browser session has its socket
        const chat = yield* api(origin, "POST", `/agents/${agent}/conversations`, { mode: "chat" })
        expect(chat.status).toBe(200)
        expect(chat.body.session).toBeUndefined()
        const session = yield* api(origin, "POST", `/agents/${agent}/conversations`, { mode: "webrtc" })
        expect(session.status).toBe(200)
        expect(session.body.status).toBe("initialized")
        const runId = session.body.workflow_run_id as number
        const { url, token, expires_at } = session.body.session as Body
        expect(url).toBe(`ws://127.0.0.1:${port}/voice/sessions/${runId}/${token}`)
        expect(new Date(expires_at).getTime()).toBeGreaterThan(Date.now())
        const small = yield* api(origin, "POST", `/agents/${agent}/conversations`, { mode: "smallwebrtc" })
        expect(small.body.session.url).toContain(`/voice/sessions/${small.body.workflow_run_id}/`)

        // refused before the upgrade: a tampered token, another run's, an expired one, a chat, an unknown path
        const base = `ws://127.0.0.1:${port}/voice/sessions`
        const expired = yield* StreamToken.make(runId, new Date(Date.now() - 1000), new Uint8Array(32))
        const tampered = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`
        for (const [refusedUrl, status] of [
          [`${base}/${runId}/${tampered}`, 403],
          [`${base}/${small.body.workflow_run_id}/${token}`, 403],
          [`${base}/${runId}/${expired}`, 403],
          [`${base}/${chat.body.workflow_run_id}/${token}`, 403],
          [`ws://127.0.0.1:${port}/voice/other`, 404]
        ] as const) {
          const refused = yield* open(refusedUrl)
          expect(Either.isLeft(refused) && refused.left).toBe(status)
        }
        // the sessions' upgrade listener takes no ordinary request: one with `Upgrade: h2c` (curl --http2)
        // is the API's, on every server (not only with TELEPHONY=twilio)
        const h2c = yield* Effect.promise(
          () =>
            new Promise<string>((resolve) => {
              const socket = connect(port, "127.0.0.1", () =>
                socket.write(
                  `GET /api/v1/agents HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-API-Key: ${apiKey}\r\n` +
                    "Connection: Upgrade\r\nUpgrade: h2c\r\n\r\n"
                )
              )
              let received = ""
              socket.on("data", (chunk) => (received += chunk.toString("utf8")))
              socket.on("error", () => socket.destroy())
              socket.on("close", () => resolve(received))
            })
        )
        expect(h2c).toMatch(/^HTTP\/1\.1 200 /)

        yield* model.script({
          kind: "reply",
          content: "Thank you, see you on Tuesday. Goodbye!",
          tool_calls: [{ name: "end_call", arguments: "{}" }]
        })
        const browser = Either.getOrThrow(yield* open(url))
        // the greeting: audio, its mark, its transcript
        yield* until(() => browser.messages.some((m) => m.type === "transcript"), "the greeting's transcript")
        expect(browser.audio.length).toBeGreaterThan(0)
        expect(browser.messages.filter((m) => m.type === "mark").length).toBeGreaterThanOrEqual(1)
        expect((yield* api(origin, "GET", `/agents/${agent}/conversations/${runId}`)).body.status).toBe(
          "in_progress"
        )
        // a second socket for the session is refused: it has started
        const second = yield* open(url)
        expect(Either.isLeft(second) && second.left).toBe(403)

        browser.socket.send(spoken("yes I confirm"))
        yield* until(() => browser.closed() !== null, "the socket closed after the end")
        expect(browser.closed()).toBe(1000)
        const transcripts = browser.messages.flatMap((m) =>
          m.type === "transcript" ? [`${m.role}: ${m.text}`] : []
        )
        expect(transcripts).toEqual([
          "assistant: Hello, this is the clinic.",
          "user: yes I confirm",
          "assistant: Thank you, see you on Tuesday. Goodbye!"
        ])
        expect(browser.messages.at(-1)).toEqual({ type: "end", reason: "end_call" })

        const ended = (yield* api(origin, "GET", `/agents/${agent}/conversations/${runId}`)).body
        expect(ended.status).toBe("completed")
        expect(ended.logs.map((l: Body) => l.message)).toContain("The agent ended the call")
        const transcript = yield* api(origin, "GET", `/agents/${agent}/conversations/${runId}/transcript`)
        expect(transcript.body.turns.map((t: Body) => [t.role, t.text])).toEqual([
          ["assistant", "Hello, this is the clinic."],
          ["user", "yes I confirm"],
          ["assistant", "Thank you, see you on Tuesday. Goodbye!"]
        ])
        const recording = yield* api(origin, "GET", `/agents/${agent}/conversations/${runId}/recording`)
        expect(recording.status).toBe(200)
        const wav = yield* Effect.promise(
          async () => new Uint8Array(await (await fetch(recording.body.download_url)).arrayBuffer())
        )
        expect(Either.getOrThrow(WavFile.parse(wav))).toMatchObject({ sample_rate: 16000, channels: 1 })
      })
  )

  it.scopedLive("the browser closing the socket ends the session's run completed", () =>
    Effect.gen(function* () {
      const { origin } = yield* started
      const created = yield* api(origin, "POST", "/agents/from-script", {
        agent: { greeting: "Hello there.", agent_goal: "Chat" }
      })
      const agent = created.body.public_id as string
      const session = yield* api(origin, "POST", `/agents/${agent}/conversations`, { mode: "webrtc" })
      const runId = session.body.workflow_run_id as number
      const browser = Either.getOrThrow(yield* open(session.body.session.url))
      yield* until(() => browser.messages.some((m) => m.type === "transcript"), "the greeting")
      browser.socket.close(1000)
      let completed = false
      for (let i = 0; i < 500 && !completed; i++) {
        const run = yield* api(origin, "GET", `/agents/${agent}/conversations/${runId}`)
        if (run.body.status === "completed") {
          expect(run.body.logs.map((l: Body) => l.message)).toContain("The caller hung up")
          completed = true
        } else yield* Effect.sleep("20 millis")
      }
      expect(completed).toBe(true)

      // the organization's live browser sessions are capped (the ended one is not live): the next is 429
      for (let i = 0; i < BrowserSessionLimits.defaultMaxLive; i++) {
        expect(
          (yield* api(origin, "POST", `/agents/${agent}/conversations`, { mode: "webrtc" })).status
        ).toBe(200)
      }
      const refused = yield* Effect.promise(() =>
        fetch(`${origin}/api/v1/agents/${agent}/conversations`, {
          method: "POST",
          headers: { "X-API-Key": apiKey, "content-type": "application/json" },
          body: JSON.stringify({ mode: "smallwebrtc" })
        })
      )
      expect(refused.status).toBe(429)
      expect(refused.headers.get("retry-after")).toBe(String(BrowserSessionLimits.retryAfterSeconds))
      const body = (yield* Effect.promise(() => refused.json())) as Body
      expect(body).toEqual({
        detail: `The organization already has ${BrowserSessionLimits.defaultMaxLive} live browser voice sessions, its limit; retry after ${BrowserSessionLimits.retryAfterSeconds} seconds`
      })
      // a chat is no browser session
      expect((yield* api(origin, "POST", `/agents/${agent}/conversations`, { mode: "chat" })).status).toBe(
        200
      )
    })
  )
})
