import { Cause, Context, Effect, FiberSet, Layer } from "effect"
import { CallEvents, type CallEvent } from "../calls/CallEvents.js"
import { RuntimeTools } from "../calls/RuntimeTools.js"
import { reporter } from "../calls/RunReporter.js"
import { ConversationEngine } from "../conversation/ConversationEngine.js"
import type { RunId } from "../runs/RunId.js"
import { isFinal } from "../runs/Run.js"
import { RunStore } from "../runs/RunStore.js"
import * as CallReclaim from "../calls/CallReclaim.js"
import * as OverdueCalls from "../calls/OverdueCalls.js"
import { Transactions } from "../storage/Transactions.js"
import { Carrier } from "./Carrier.js"
import * as CarrierFinalStatus from "./CarrierFinalStatus.js"
import * as CallRecording from "./CallRecording.js"
import * as CallAudioHandOver from "./CallAudioHandOver.js"
import * as LiveCall from "./LiveCall.js"
import { RecordingSpools } from "./RecordingSpool.js"
import type { OrganizationId } from "../organizations/Organization.js"
import type { MediaSession } from "./MediaSession.js"
import { SpeechToText } from "./SpeechToText.js"
import { TextToSpeech } from "./TextToSpeech.js"
import type { TurnLatency } from "./TurnLatency.js"
import * as VoiceLoop from "./VoiceLoop.js"
import type { VoiceLoopEnd } from "./VoiceLoopEnd.js"
import { VoiceLoopSettings } from "./VoiceLoopSettings.js"
import * as VoiceMetrics from "./VoiceMetrics.js"

/**
 * A real call's conversation, once the carrier's media socket for its run is open (on whichever server
 * it landed): the run's agent version is read from storage, and the `VoiceLoop` runs over the socket's
 * `MediaSession` in the agent's language and voice. While it runs, the transcript is written as fragments
 * and each turn's latencies as a log line and in `/metrics` (`VoiceMetrics`); the model's tokens are counted on the run. When the loop ends,
 * the recording (both sides mixed, `CallRecording`) is stored and the run marked as handed over
 * (`CallAudioHandOver`: the carrier's end waits for it), then the call is hung up through the
 * carrier — or transferred, when the agent transferred it to a number its version allows; a caller who
 * hung up is left alone. The run itself ends with the carrier's status callback (`CarrierCallbacks`),
 * which brings the billed duration — or, should that callback be lost, with the call's final status read
 * from the carrier (`CarrierFinalStatus`, in the background). A server stopping interrupts the loop: the
 * call is hung up the same way.
 */

export class VoiceCalls extends Context.Tag("@voice-agent-platform/core/VoiceCalls")<
  VoiceCalls,
  {
    /** Runs the call of `runId` (the carrier's `callId`) over `media` until it ends. */
    readonly serve: (runId: RunId, callId: string, media: MediaSession) => Effect.Effect<void>
  }
>() {}

/** A turn's latencies as the run's log line. */
export const latencyLine = (latency: TurnLatency): string => {
  const ms = (value: number | null) => (value === null ? "none" : `${value} ms`)
  return (
    `Turn ${latency.turn} latency: transcript final ${ms(latency.transcript_final_ms)}, ` +
    `first token ${ms(latency.first_token_ms)}, first audio ${ms(latency.first_audio_ms)}, ` +
    `first frame ${ms(latency.first_frame_ms)}`
  )
}

/** How a loop's end reads in the run's logs. */
export const endLine = (end: VoiceLoopEnd): string => {
  switch (end.reason) {
    case "end_call":
      return "The agent ended the call"
    case "transfer":
      return `The agent transferred the call to ${end.destination_number}`
    case "silence":
      return "The call ended after the caller stayed silent"
    case "hangup":
      return "The caller hung up"
    case "run_ended":
      return "The call's run was ended elsewhere"
    case "error":
      return `The call ended on an error (${end.source}: ${end.error})`
  }
}

/**
 * The voice loop's input for a run's conversation (a call's or a browser session's): its agent version's
 * language and voice, its media (recorded: `LiveCall.tap`), each fragment and each turn's latency line
 * reported as the run's events (and the latency in /metrics), the model's tokens on the run.
 */
export const runLoopInput = (run: {
  readonly version: VoiceLoop.VoiceLoopInput["version"]
  readonly media: MediaSession
  readonly report: (event: CallEvent) => Effect.Effect<void>
  readonly addModelUsage: NonNullable<VoiceLoop.VoiceLoopInput["usage"]>
  /** Also told of each fragment once it is reported (the browser is sent it). */
  readonly onFragment?: VoiceLoop.VoiceLoopInput["transcript"]
}): VoiceLoop.VoiceLoopInput => ({
  version: run.version,
  media: run.media,
  language: run.version.definition.workflow_definition.language,
  voice: run.version.agent.workflow_configurations.voice ?? undefined,
  transcript: (fragment) => {
    const reported = run.report({ type: "fragment", ...fragment })
    return run.onFragment === undefined ? reported : Effect.zipRight(reported, run.onFragment(fragment))
  },
  latency: (latency) =>
    Effect.zipRight(
      VoiceMetrics.recordTurn(latency),
      run.report({ type: "log", level: "info", message: latencyLine(latency) })
    ),
  usage: run.addModelUsage
})

export const make = Effect.gen(function* () {
  const events = yield* CallEvents
  const runtimeTools = yield* RuntimeTools
  const runs = yield* RunStore
  const carrier = yield* Carrier
  const loopContext = yield* Effect.context<ConversationEngine | SpeechToText | TextToSpeech>()
  const settings = yield* VoiceLoopSettings
  const spools = yield* RecordingSpools
  const settlements = yield* FiberSet.make()
  const settleContext = yield* Effect.context<Carrier | RunStore | CallEvents | Transactions>()

  const serve = (runId: RunId, callId: string, media: MediaSession) => {
    // the call's end is read from the carrier once its conversation is over, however it ended (see
    // `settleLater`): once per call
    let settling = false
    /**
     * Reads the call's final status from the carrier should its callback be lost (`CarrierFinalStatus`),
     * until `reclaimAt`; forked into the service's set (interruptible: forked from the call's end path,
     * which runs uninterruptibly, it would inherit that, and a server stopping would wait out its whole
     * schedule).
     */
    const settleLater = (organizationId: OrganizationId, reclaimAt: Date) =>
      Effect.suspend(() => {
        if (settling) return Effect.void
        settling = true
        return FiberSet.run(
          settlements,
          Effect.interruptible(
            CarrierFinalStatus.settle({
              organization_id: organizationId,
              run_id: runId,
              call_id: callId,
              reclaim_at: reclaimAt
            }).pipe(Effect.provide(settleContext))
          )
        )
      })
    /**
     * After a failure outside the loop (its agent unreadable, its recording not made, its end path
     * broken), the call is hung up and its run still ends: by its callback, or by a read of it, until the
     * longest reclaim deadline an agent can have (the run's own agent may be what could not be read).
     */
    const settleAfterFailure = runs.findAnyOrganization(runId).pipe(
      Effect.flatMap((run) =>
        run._tag === "Some" && !isFinal(run.value.status)
          ? settleLater(
              run.value.organization_id,
              OverdueCalls.reclaimAt(run.value.created_at, CallReclaim.fallbackMaxCallDurationSeconds)
            )
          : Effect.void
      ),
      Effect.catchAllCause((cause) =>
        Effect.logError(`run ${runId}: its call's final status will not be read`, cause)
      )
    )

    return Effect.gen(function* () {
      const version = yield* runtimeTools.agentOf(runId)
      const organizationId = version.run.organization_id
      const report = reporter(events, organizationId, runId)
      const recording = yield* CallRecording.make(media.sample_rate)
      const audio = yield* LiveCall.tap(media, recording)
      let hungUp = false
      const hangUp = Effect.suspend(() => {
        if (hungUp) return Effect.void
        hungUp = true
        return carrier.hangUp(callId).pipe(
          Effect.catchAll((error) =>
            report({
              type: "log",
              level: "error",
              message: `The call could not be hung up: ${error.message}`
            })
          )
        )
      })

      /** What the loop's end asks of the carrier: a transfer, a hang-up, or nothing (the caller is gone). */
      const carrierEnd = (end: VoiceLoopEnd | null) =>
        Effect.gen(function* () {
          if (end === null) return yield* hangUp
          switch (end.reason) {
            case "hangup":
              return
            case "transfer":
              if (version.transfer_numbers.includes(end.destination_number)) {
                return yield* carrier.transfer(callId, end.destination_number).pipe(
                  Effect.catchAll((error) =>
                    Effect.zipRight(
                      report({
                        type: "log",
                        level: "error",
                        message: `The transfer failed: ${error.message}`
                      }),
                      hangUp
                    )
                  )
                )
              }
              yield* report({
                type: "log",
                level: "warning",
                message: `The transfer to ${end.destination_number} is not allowed by the agent; the call is hung up`
              })
              return yield* hangUp
            default:
              return yield* hangUp
          }
        })

      /**
       * The call's end, on every exit of the loop (its end, a defect, the server stopping): the end line,
       * the carrier told, then — once the call's audio has ended, its tail recorded — the recording and
       * the hand-over. A run ended elsewhere refuses them: the call is only hung up.
       */
      const finish = (end: VoiceLoopEnd | null) =>
        Effect.gen(function* () {
          if (end?.reason === "run_ended") {
            yield* Effect.logInfo(
              `run ${runId} ended elsewhere: its call is hung up, its media socket closed`
            )
            yield* audio.detach
            return yield* hangUp
          }
          yield* report({
            type: "log",
            level: end === null || end.reason === "error" ? "error" : "info",
            message: end === null ? "The call ended: the server stopped" : endLine(end)
          })
          yield* audio.detach
          yield* carrierEnd(end)
          // the run ends with the carrier's final status callback, or, should it be lost, with a read of it
          yield* settleLater(
            organizationId,
            OverdueCalls.reclaimAt(
              version.run.created_at,
              version.agent.workflow_configurations.max_call_duration_seconds
            )
          )
          yield* audio.ended(LiveCall.audioEndTimeout)
          const wav = yield* recording.wav
          if (wav !== null) yield* report({ type: "recording", bytes: wav })
          yield* report({ type: "log", level: "info", message: CallAudioHandOver.handedOverMessage })
        })

      // from here the carrier's end of the call waits (bounded) for this loop's recording and transcript
      yield* report({ type: "log", level: "info", message: CallAudioHandOver.connectedMessage })
      yield* VoiceLoop.run(
        runLoopInput({
          version,
          media: audio.media,
          report,
          addModelUsage: (usage) => Effect.asVoid(runs.addModelUsage(organizationId, runId, usage))
        })
      ).pipe(
        Effect.provide(loopContext),
        Effect.provideService(VoiceLoopSettings, settings),
        Effect.raceFirst(
          Effect.as(LiveCall.untilRunEnded(runs, runId, settings.runPollMs), { reason: "run_ended" } as const)
        ),
        // every exit: a server stopping mid-call leaves no caller on a dead line, and nothing unsaid
        Effect.onExit((exit) => Effect.flatMap(LiveCall.endOf(exit, `run ${runId}`), finish))
      )
    }).pipe(
      Effect.scoped,
      Effect.provideService(RecordingSpools, spools),
      Effect.catchAllCause((cause) =>
        Cause.isInterruptedOnly(cause)
          ? Effect.void
          : Effect.logError(`the voice call of run ${runId} failed`, cause).pipe(
              Effect.zipRight(
                carrier
                  .hangUp(callId)
                  .pipe(
                    Effect.catchAllCause((cause) =>
                      Effect.logError(`run ${runId}: its call could not be hung up`, cause)
                    )
                  )
              ),
              Effect.zipRight(settleAfterFailure)
            )
      ),
      Effect.withSpan("VoiceCalls.serve", { attributes: { run: runId, provider: carrier.provider } })
    )
  }

  return VoiceCalls.of({ serve })
})

export const layer: Layer.Layer<
  VoiceCalls,
  never,
  | CallEvents
  | RuntimeTools
  | RunStore
  | Carrier
  | ConversationEngine
  | SpeechToText
  | TextToSpeech
  | Transactions
> = Layer.scoped(VoiceCalls, make)
