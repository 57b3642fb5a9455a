import { Effect, Metric, MetricBoundaries } from "effect"
import type { TurnLatency } from "./TurnLatency.js"

/**
 * The voice loop's figures for `/metrics`: each caller turn's latencies, from the moment the caller
 * stopped speaking to each step of the answer, as one histogram labelled by `step`
 * (`transcript_final`, `first_token`, `first_audio`, `first_frame`). A step the turn never reached is not
 * recorded. Labels are bounded: the four steps, never a run or an organization.
 */

export const turnLatency = Metric.histogram(
  "vap_voice_turn_latency_seconds",
  MetricBoundaries.fromIterable([0.025, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10]),
  "Time from the caller's last words to each step of the agent's answer, by step"
)

export const steps = ["transcript_final", "first_token", "first_audio", "first_frame"] as const

const byStep = Object.fromEntries(
  steps.map((step) => [step, Metric.tagged(turnLatency, "step", step)])
) as Record<(typeof steps)[number], typeof turnLatency>

/** Records a turn's latencies (milliseconds in the record, seconds in the histogram). */
export const recordTurn = (latency: TurnLatency): Effect.Effect<void> =>
  Effect.forEach(
    steps,
    (step) => {
      const ms = latency[`${step}_ms`]
      return ms === null ? Effect.void : Metric.update(byStep[step], ms / 1000)
    },
    { discard: true }
  )
