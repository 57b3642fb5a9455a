import { CallingClock } from "@voice-agent-platform/core/testing"
import { expect } from "@effect/vitest"
import { FakeOpenAiServer } from "@voice-agent-platform/language-models/testing"
import {
  FakeDeepgram,
  FakeMediaStream,
  FakeSpeechServer,
  FakeTwilio
} from "@voice-agent-platform/voice/testing"
import { ConfigProvider, Effect, Layer } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Server from "../../src/server/Server.js"
import { freePort } from "../support/ServerProcesses.js"

/** The servers' clock (`CLOCK_OFFSET_SECONDS`, `CallingClock`): 11:00 UTC of today as the file began. */
export const serverClock = CallingClock.env()

/** The servers' time now (a token's expiry is judged by it). */
export const serverNow = () => Date.now() + Number(serverClock.CLOCK_OFFSET_SECONDS) * 1000

/**
 * The bundled server (`Server.layer`, configured as by the environment, over its embedded database) with
 * Twilio, Deepgram, the speech server and the model all fakes on loopback, and the API and webhook
 * helpers the real-call tests share.
 */

export type Body = Record<string, any>

export const apiKey = `vap_${"T".repeat(40)}`
export const mediaSecret = "the media stream secret of this test, 32+ bytes"
export const defaultFrom = "+48221234567"

/** The server and every fake, for the scope. */
export const started = (extraEnv: Record<string, string> = {}) =>
  Effect.gen(function* () {
    const twilio = yield* FakeTwilio.start({ now: serverNow })
    const deepgram = yield* FakeDeepgram.make()
    const speech = yield* FakeSpeechServer.start
    const model = yield* FakeOpenAiServer.start
    const port = yield* Effect.promise(() => freePort())
    const dataDir = yield* Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "vap-twilio-"))),
      (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
    )
    const origin = `http://127.0.0.1:${port}`
    const env = {
      // the server's clock at 11:00 UTC of today: CallingClock.inside is within calling hours, whatever the hour
      ...serverClock,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      BOOTSTRAP_API_KEY: apiKey,
      TELEPHONY: "twilio",
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_API_BASE_URL: twilio.baseUrl,
      TWILIO_DEFAULT_FROM: defaultFrom,
      PUBLIC_BASE_URL: origin,
      MEDIA_STREAM_SECRET: mediaSecret,
      STT_PROVIDER: "deepgram",
      DEEPGRAM_API_KEY: deepgram.apiKey,
      DEEPGRAM_URL: deepgram.url,
      TTS_PROVIDER: "openai",
      TTS_BASE_URL: speech.openAiBaseUrl,
      TTS_API_KEY: FakeSpeechServer.openAiKey,
      LLM_PROVIDER: "openai",
      LLM_BASE_URL: model.baseUrl,
      LLM_API_KEY: "sk-test-0123456789abcdefghijklmnopqrstuvwxyz",
      LLM_MODEL: "fake-model-1",
      ...extraEnv
    }
    yield* Layer.build(Server.layer).pipe(
      Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))
    )
    return { twilio, deepgram, speech, model, origin }
  })

export const api = (origin: string, method: string, path: string, body?: unknown) =>
  Effect.promise(async () => {
    const response = await fetch(`${origin}/api/v1${path}`, {
      method,
      headers: { "X-API-Key": apiKey, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    return { status: response.status, body: (text === "" ? null : JSON.parse(text)) as Body }
  })

export const download = (url: string) =>
  Effect.promise(async () => new Uint8Array(await (await fetch(url)).arrayBuffer()))

/** An agent whose tools include end_call. */
export const agentWithEndCall = (origin: string) =>
  Effect.gen(function* () {
    const created = yield* api(origin, "POST", "/agents/from-script", {
      agent: { greeting: "Hello, this is the clinic.", agent_goal: "Confirm the appointment" }
    })
    expect(created.status).toBe(200)
    const tool = yield* api(origin, "POST", "/tools", {
      name: "End call",
      definition: { type: "end_call", config: {} }
    })
    expect(tool.status).toBe(200)
    const patched = yield* api(origin, "PATCH", `/agents/${created.body.public_id}`, {
      tools: [tool.body.tool_uuid]
    })
    expect(patched.status).toBe(200)
    return created.body.public_id as string
  })

/** Reads the run until `check` holds of it. */
export const runUntil = (origin: string, agent: string, runId: number, check: (run: Body) => boolean) =>
  Effect.gen(function* () {
    for (let i = 0; i < 500; i++) {
      const run = yield* api(origin, "GET", `/agents/${agent}/conversations/${runId}`)
      if (check(run.body)) return run.body
      yield* Effect.sleep("20 millis")
    }
    return yield* Effect.dieMessage(`run ${runId} never reached the state asked for`)
  })

export const until = (check: () => boolean, what: string) =>
  Effect.gen(function* () {
    for (let i = 0; i < 500; i++) {
      if (check()) return
      yield* Effect.sleep("20 millis")
    }
    return yield* Effect.dieMessage(`never: ${what}`)
  })

export const answerUrl = (origin: string, runId: number) => `${origin}/telephony/twilio/answer/${runId}`
export const statusUrl = (origin: string, runId: number) => `${origin}/telephony/twilio/status/${runId}`

export type Servers = Effect.Effect.Success<ReturnType<typeof started>>

/** A call placed to `agent`, answered by the fake Twilio and in progress: its run, call and stream URL. */
export const answeredCall = (servers: Servers, agent: string) =>
  Effect.gen(function* () {
    const { twilio, origin } = servers
    const placed = yield* api(origin, "POST", `/agents/${agent}/calls`, { phone_number: CallingClock.inside })
    expect(placed.status).toBe(200)
    const runId = placed.body.workflow_run_id as number
    const call = twilio.calls().at(-1)!
    const answered = yield* twilio.postSigned(answerUrl(origin, runId), [["CallSid", call.sid]])
    const streamUrl = /<Stream url="([^"]+)"/.exec(answered.body)![1]!
    yield* twilio.postSigned(statusUrl(origin, runId), twilio.statusParams(call, "in-progress", 2))
    return { runId, call, streamUrl }
  })

/** Twilio's media stream of `call` (an answered call's `streamUrl`), connected and started. */
export const startedStream = (
  servers: Servers,
  call: { readonly sid: string },
  streamUrl: string,
  options: Omit<FakeMediaStream.Options, "callSid" | "accountSid"> = {}
) =>
  Effect.gen(function* () {
    const stream = yield* FakeMediaStream.connect(streamUrl, {
      ...options,
      callSid: call.sid,
      accountSid: servers.twilio.accountSid
    })
    yield* stream.start
    return stream
  })
