// The voice bench's world: the fake providers (Twilio and its callers, Deepgram, the speech server, the
// model), each answering after a fixed delay, in this process (the model in a child of its own); the
// agent the calls are placed to; and the turn and CPU arithmetic.
import { E164 } from "@voice-agent-platform/core"
import { FakeOpenAiServer } from "@voice-agent-platform/language-models/testing"
import {
  FakeCallers,
  FakeDeepgram,
  FakePublicAddress,
  FakeSpeechServer,
  FakeTwilio
} from "@voice-agent-platform/voice/testing"
import { Effect, Either, type Scope } from "effect"
import { percentile } from "./ChatFigures.js"
import * as ServerProcess from "./ServerProcess.js"

/** The providers' fixed delays, each paid once a turn. */
export interface Delays {
  /** The speech recogniser: from the silence ending the caller's words to its final transcript. */
  readonly sttMs: number
  /** The model: from its request to its answer's head (the reply then comes at once). */
  readonly modelMs: number
  /** The speech server: from its request to its first audio bytes. */
  readonly ttsMs: number
}

export interface WorldSettings {
  readonly delays: Delays
  /** Each caller speaks this many times; the last time they ask the agent to end the call. */
  readonly turns: number
  readonly speechMs: number
  readonly endpointingMs: number
  /** TTS answers to queue with the delay (one a sentence the agent says). */
  readonly speechAnswers: number
}

/**
 * The server's clock shift to 11:00 UTC today (as core's CallingClock, whose module imports vitest): the
 * Warsaw numbers are inside calling hours.
 */
const clockOffsetSeconds =
  (new Date(`${new Date().toISOString().slice(0, 10)}T11:00:00.000Z`).getTime() - Date.now()) / 1000

/** Every fake, for the scope. */
export const world = (settings: WorldSettings) =>
  Effect.gen(function* () {
    // Twilio's clock agrees with the server's (shifted: `engineEnv`)
    const twilio = yield* FakeTwilio.start({ now: () => Date.now() + clockOffsetSeconds * 1000 })
    const texts = [
      ...Array.from({ length: settings.turns - 1 }, (_, i) => `Tell me about option ${i + 1} please`),
      "Thank you, please end_call"
    ]
    const deepgram = yield* FakeDeepgram.make({
      defaultScript: {
        steps: [],
        delayMs: settings.delays.sttMs,
        spoken: { texts, endpointingMs: settings.endpointingMs }
      }
    })
    const speech = yield* FakeSpeechServer.start
    yield* speech.script(
      ...Array.from({ length: settings.speechAnswers }, () => ({
        kind: "speak" as const,
        firstByteDelayMs: settings.delays.ttsMs
      }))
    )
    const model = yield* FakeOpenAiServer.start
    yield* model.setDefaultDelay(settings.delays.modelMs)
    const address = yield* FakePublicAddress.start()
    const callers = yield* FakeCallers.start({
      twilio,
      turns: settings.turns,
      speechMs: settings.speechMs,
      endpointingMs: settings.endpointingMs,
      maxCallMs: 120_000
    })
    return { twilio, deepgram, speech, model, address, callers }
  }) satisfies Effect.Effect<unknown, never, Scope.Scope>

export type World = Effect.Effect.Success<ReturnType<typeof world>>

/** The server's voice settings over the fakes. */
export const engineEnv = (w: World): Record<string, string> => ({
  CLOCK_OFFSET_SECONDS: String(clockOffsetSeconds),
  TELEPHONY: "twilio",
  TWILIO_ACCOUNT_SID: w.twilio.accountSid,
  TWILIO_AUTH_TOKEN: w.twilio.authToken,
  TWILIO_API_BASE_URL: w.twilio.baseUrl,
  TWILIO_DEFAULT_FROM: "+48221234567",
  PUBLIC_BASE_URL: w.address.url,
  MEDIA_STREAM_SECRET: "the media stream secret of the voice bench, 32 bytes or more",
  STT_PROVIDER: "deepgram",
  DEEPGRAM_API_KEY: w.deepgram.apiKey,
  DEEPGRAM_URL: w.deepgram.url,
  TTS_PROVIDER: "openai",
  TTS_BASE_URL: w.speech.openAiBaseUrl,
  TTS_API_KEY: FakeSpeechServer.openAiKey,
  LLM_PROVIDER: "openai",
  LLM_BASE_URL: w.model.baseUrl,
  LLM_API_KEY: "sk-bench-0123456789abcdefghijklmnopqrstuvwxyz",
  LLM_MODEL: "fake-model-1"
})

/** `count` distinct Warsaw numbers, inside calling hours on the server's clock. */
export const numbers = (count: number): ReadonlyArray<string> => {
  const found: Array<string> = []
  for (let i = 0; found.length < count && i < count * 20; i++) {
    const normalized = E164.normalize(`+48500${String(300_000 + i * 7)}`)
    if (Either.isRight(normalized) && !found.includes(normalized.right)) found.push(normalized.right)
  }
  return found
}

export interface VoiceFigures {
  readonly calls: number
  readonly turns: number
  /** Calls that did not run their course (the engine hung up after every turn). */
  readonly otherEnds: Readonly<Record<string, number>>
  readonly seconds: number
  readonly latency: { readonly p50: number; readonly p99: number }
  /** Latency minus the providers' delays: the engine's own share. */
  readonly own: { readonly p50: number; readonly p99: number; readonly max: number }
  /** Live call-seconds (answer to end, summed). */
  readonly callSeconds: number
  /** The server's CPU over the load (µs), /proc; undefined elsewhere. */
  readonly cpuMicros: number | undefined
}

export const figures = (
  callers: FakeCallers.Running,
  delays: Delays,
  seconds: number,
  cpuMicros: number | undefined
): VoiceFigures => {
  const paid = delays.sttMs + delays.modelMs + delays.ttsMs
  const latencies = callers
    .turns()
    .map((t) => t.latencyMs)
    .sort((a, b) => a - b)
  const own = latencies.map((ms) => ms - paid)
  const otherEnds: Record<string, number> = {}
  for (const outcome of callers.outcomes()) {
    if (outcome.end !== "hung_up") otherEnds[outcome.end] = (otherEnds[outcome.end] ?? 0) + 1
  }
  return {
    calls: callers.outcomes().length,
    turns: latencies.length,
    otherEnds,
    seconds,
    latency: { p50: percentile(latencies, 50), p99: percentile(latencies, 99) },
    own: { p50: percentile(own, 50), p99: percentile(own, 99), max: own.at(-1) ?? Number.NaN },
    callSeconds: callers.outcomes().reduce((sum, o) => sum + o.talkMs / 1000, 0),
    cpuMicros
  }
}

const ms = (value: number) => (Number.isNaN(value) ? "—" : `${value.toFixed(1)} ms`)

/** The CPU per live call as a share of one core, or undefined. */
export const cpuShare = (f: VoiceFigures) =>
  f.cpuMicros === undefined || f.callSeconds === 0 ? undefined : f.cpuMicros / 1e6 / f.callSeconds

/** The server's CPU over the measured calls as a share of one core (it is pinned to one), or undefined. */
export const busyShare = (f: VoiceFigures) =>
  f.cpuMicros === undefined || f.seconds === 0 ? undefined : f.cpuMicros / 1e6 / f.seconds

export const describe = (name: string, f: VoiceFigures, delays: Delays): ReadonlyArray<string> => {
  const share = cpuShare(f)
  const busy = busyShare(f)
  const ends = Object.entries(f.otherEnds)
  return [
    `${name}: ${f.calls} calls, ${f.turns} turns timed in ${f.seconds.toFixed(1)} s; ${ends.length === 0 ? "every call ran its course" : `calls that did not run their course: ${ends.map(([end, n]) => `${n} ${end}`).join(", ")}`}`,
    `    turn latency at the fake Twilio (the caller's silence complete → the agent's first audio frame) p50 ${ms(f.latency.p50)}, p99 ${ms(f.latency.p99)}`,
    `    the engine's own share (minus the providers' ${delays.sttMs} + ${delays.modelMs} + ${delays.ttsMs} ms): p50 ${ms(f.own.p50)}, p99 ${ms(f.own.p99)}, max ${ms(f.own.max)} (goal p50 ≤ 20 ms, p99 ≤ 60 ms)`,
    `    CPU per live call: ${share === undefined ? "? (no /proc)" : `${(share * 100).toFixed(2)}% of a core`} (${f.cpuMicros === undefined ? "?" : (f.cpuMicros / 1e6).toFixed(2)} s of CPU over ${f.callSeconds.toFixed(1)} call-seconds; goal ≤ 2%)`,
    ...(busy === undefined
      ? []
      : [
          `    the server's CPU over the calls: ${(busy * 100).toFixed(0)}% of a core` +
            (busy > ServerProcess.saturatedAbove
              ? " — SATURATED: the latencies are queueing, and the CPU per live call is a floor (calls stretched by the wait share it out over more call-seconds); measure with fewer BENCH_CALLS"
              : "")
        ])
  ]
}

/** `engine / hand-written` ratios of the own share and of the CPU per live call. */
export const ratios = (engine: VoiceFigures, baseline: VoiceFigures) => {
  const r = (a: number | undefined, b: number | undefined) =>
    a === undefined || b === undefined || b <= 0 || Number.isNaN(a) || Number.isNaN(b)
      ? "?"
      : `${(a / b).toFixed(2)}x`
  return `engine / hand-written relay: own share p50 ${r(engine.own.p50, baseline.own.p50)}, p99 ${r(engine.own.p99, baseline.own.p99)}; CPU per live call ${r(cpuShare(engine), cpuShare(baseline))}`
}
