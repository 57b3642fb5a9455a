// The chat bench's arithmetic: each turn's model requests from the fake's record, the engine's own time
// per turn (wall time minus the model's), percentiles, and the printed lines.
import type { RecordedRequest } from "@voice-agent-platform/language-models/testing"
import type { TimedTurn } from "./ChatLoad.js"
import * as ServerProcess from "./ServerProcess.js"

/** A turn with the model requests it made and the time that was not the model's. */
export interface OwnTurn extends TimedTurn {
  readonly modelRequests: number
  readonly ownMs: number
}

/** What one measured load came to. */
export interface TurnFigures {
  readonly turns: number
  readonly errors: number
  readonly seconds: number
  readonly perSecond: number
  /** The server process's CPU (user + system) per answered turn, in ms; undefined without /proc. */
  readonly cpuMs: number | undefined
  readonly modelRequestsPerTurn: number
  readonly own: Percentiles
  readonly wall: Percentiles
  readonly withoutTools: Percentiles
  readonly withTools: Percentiles
  readonly streamed: Percentiles
  readonly errorSamples: ReadonlyArray<string>
}

export interface Percentiles {
  readonly count: number
  readonly p50: number
  readonly p99: number
}

export const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

const percentiles = (values: ReadonlyArray<number>): Percentiles => {
  const sorted = [...values].sort((a, b) => a - b)
  return { count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) }
}

const textOf = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((part) => (typeof part?.text === "string" ? part.text : "")).join(" ")
      : ""

/**
 * The conversation requests the fake received, counted by the last user message they carried: each
 * measured message is unique (its reference), and every request of a turn, the tool calls' follow-ups
 * too, ends its conversation with that turn's user message. Structured requests (the analysis) and
 * requests without a user message are left out.
 */
export const requestsByMessage = (requests: ReadonlyArray<RecordedRequest>): ReadonlyMap<string, number> => {
  const counts = new Map<string, number>()
  for (const request of requests) {
    const body = request.body as {
      messages?: Array<{ role?: string; content?: unknown }>
      response_format?: unknown
    }
    if (!request.path.endsWith("/chat/completions") || body.response_format !== undefined) continue
    const users = (body.messages ?? []).filter((message) => message.role === "user")
    const last = users.at(-1)
    if (last === undefined) continue
    const text = textOf(last.content)
    counts.set(text, (counts.get(text) ?? 0) + 1)
  }
  return counts
}

/**
 * Each answered turn's own time: its wall time at the client minus `delayMs` for each model request it
 * made (the fake waits exactly `delayMs` before each answer, then writes it at once). A turn whose
 * requests are not found in the record is an error (the count would be a guess).
 */
export const ownTurns = (
  turns: ReadonlyArray<TimedTurn>,
  requests: ReadonlyMap<string, number>,
  delayMs: number
): ReadonlyArray<OwnTurn> =>
  turns.map((turn) => {
    const modelRequests = requests.get(turn.text) ?? 0
    const error =
      turn.error ?? (delayMs > 0 && modelRequests === 0 ? "no model request recorded for it" : null)
    return { ...turn, error, modelRequests, ownMs: turn.wallMs - delayMs * modelRequests }
  })

/** The figures of a measured load; `cpuMicros` is the server's CPU over it. */
export const figures = (
  turns: ReadonlyArray<OwnTurn>,
  seconds: number,
  cpuMicros: number | undefined
): TurnFigures => {
  const answered = turns.filter((turn) => turn.error === null)
  const own = (filter: (turn: OwnTurn) => boolean) =>
    percentiles(answered.filter(filter).map((turn) => turn.ownMs))
  return {
    turns: answered.length,
    errors: turns.length - answered.length,
    seconds,
    perSecond: answered.length / seconds,
    cpuMs: cpuMicros === undefined || answered.length === 0 ? undefined : cpuMicros / 1000 / answered.length,
    modelRequestsPerTurn:
      answered.reduce((sum, turn) => sum + turn.modelRequests, 0) / Math.max(1, answered.length),
    own: own(() => true),
    wall: percentiles(answered.map((turn) => turn.wallMs)),
    withoutTools: own((turn) => turn.toolCalls === 0),
    withTools: own((turn) => turn.toolCalls > 0),
    streamed: own((turn) => turn.streamed),
    errorSamples: [...new Set(turns.flatMap((turn) => (turn.error === null ? [] : [turn.error])))].slice(0, 5)
  }
}

const ms = (value: number) => (Number.isNaN(value) ? "    —" : value.toFixed(2).padStart(6))
const pair = (p: Percentiles) => `${ms(p.p50)} / ${ms(p.p99)} ms (${p.count})`

/**
 * The server's CPU over the load as a share of the one core it is pinned to. Above `ServerProcess.saturatedAbove` the
 * server is saturated: turns wait in its queue, so the own time is mostly that wait, not a turn's work.
 */
const busyShare = (f: TurnFigures) => (f.cpuMs === undefined ? undefined : (f.cpuMs * f.perSecond) / 1000)

const busyText = (f: TurnFigures) => {
  const busy = busyShare(f)
  if (busy === undefined) return ""
  return (
    `, the server ${(busy * 100).toFixed(0)}% of a core` +
    (busy > ServerProcess.saturatedAbove
      ? " (SATURATED: the own time below is mostly waiting for the core)"
      : "")
  )
}

/** The lines printed for one measured load. */
export const describe = (name: string, f: TurnFigures): ReadonlyArray<string> => [
  `${name}: ${f.turns} turns in ${f.seconds.toFixed(1)} s = ${f.perSecond.toFixed(0)} turns/s, CPU ${f.cpuMs === undefined ? "?" : f.cpuMs.toFixed(2)} ms a turn${busyText(f)}, ${f.modelRequestsPerTurn.toFixed(2)} model requests a turn, ${f.errors} errors`,
  `    own time p50 / p99: all ${pair(f.own)}; no tool call ${pair(f.withoutTools)}; with tool calls ${pair(f.withTools)}; streamed ${pair(f.streamed)}`,
  `    wall time p50 / p99: ${pair(f.wall)}`,
  ...f.errorSamples.map((sample) => `    error: ${sample}`)
]

/** `engine / baseline` ratios of own time and CPU. */
export const ratios = (engine: TurnFigures, baseline: TurnFigures) => {
  const r = (a: number | undefined, b: number | undefined) =>
    a === undefined || b === undefined || b === 0 ? "?" : `${(a / b).toFixed(2)}x`
  return `engine / hand-written: own time p50 ${r(engine.own.p50, baseline.own.p50)}, p99 ${r(engine.own.p99, baseline.own.p99)} (turns without tool calls: p50 ${r(engine.withoutTools.p50, baseline.own.p50)}, p99 ${r(engine.withoutTools.p99, baseline.own.p99)}); CPU a turn ${r(engine.cpuMs, baseline.cpuMs)}; turns/s ${r(engine.perSecond, baseline.perSecond)}`
}
