import { Cause, Clock, Context, Effect, Layer } from "effect"
import { CallEvents } from "../calls/CallEvents.js"
import { RuntimeTools } from "../calls/RuntimeTools.js"
import { ConversationEngine } from "../conversation/ConversationEngine.js"
import { maxDurationSeconds } from "../calls/CallEnd.js"
import type { RunId } from "../runs/RunId.js"
import { RunStore } from "../runs/RunStore.js"
import type { TranscriptFragment } from "../transcripts/Transcript.js"
import * as CallRecording from "./CallRecording.js"
import type { MediaSession } from "./MediaSession.js"
import { SpeechToText } from "./SpeechToText.js"
import { TextToSpeech } from "./TextToSpeech.js"
import * as VoiceLoop from "./VoiceLoop.js"
import type { VoiceLoopEnd } from "./VoiceLoopEnd.js"
import { VoiceLoopSettings } from "./VoiceLoopSettings.js"
import { reporter } from "../calls/RunReporter.js"
import { endLine, runLoopInput } from "./VoiceCalls.js"
import * as LiveCall from "./LiveCall.js"
import { RecordingSpools } from "./RecordingSpool.js"

/**
 * A browser voice session's conversation (`mode: webrtc` or `smallwebrtc`), once its socket is open on
 * this server: the same `VoiceLoop` as a phone call's, over the socket's `MediaSession` (16 kHz), with no
 * carrier, no channel and no calling hours. The run goes `in_progress` when the loop starts; while it runs
 * the transcript is written as fragments (and given to `onFragment`, for the browser), latencies logged
 * and measured, tokens counted; when the loop ends (the person left, the agent ended the session, silence,
 * an error) the recording is stored and the run ended `completed` (`failed` for an error) with the
 * session's length, then analysed as every run is. A server stopping ends it the same way.
 */

export class BrowserSessions extends Context.Tag("@voice-agent-platform/core/BrowserSessions")<
  BrowserSessions,
  {
    /**
     * Runs the session of `runId` over `media` until it ends; answers how the loop ended (null when it
     * could not run: the run is gone or ended).
     */
    readonly serve: (
      runId: RunId,
      media: MediaSession,
      onFragment: (fragment: TranscriptFragment) => Effect.Effect<void>
    ) => Effect.Effect<VoiceLoopEnd | null>
  }
>() {}

export const make = Effect.gen(function* () {
  const events = yield* CallEvents
  const runtimeTools = yield* RuntimeTools
  const runs = yield* RunStore
  const loopContext = yield* Effect.context<ConversationEngine | SpeechToText | TextToSpeech>()
  const settings = yield* VoiceLoopSettings
  const spools = yield* RecordingSpools

  const serve = (
    runId: RunId,
    media: MediaSession,
    onFragment: (fragment: TranscriptFragment) => Effect.Effect<void>
  ) =>
    Effect.gen(function* () {
      const version = yield* runtimeTools.agentOf(runId)
      const organizationId = version.run.organization_id
      const report = reporter(events, organizationId, runId)
      // the session starts once: a run another socket started (its `answered` applied first, the runs'
      // events taking turns) or one already ended is not talked again
      const started = yield* Effect.either(events.report(organizationId, runId, { type: "answered" }))
      if (started._tag === "Left" || started.right._tag === "Ignored") return null
      const startedAt = yield* Clock.currentTimeMillis
      const recording = yield* CallRecording.make(media.sample_rate)
      const audio = yield* LiveCall.tap(media, recording)

      /**
       * Stores what the session said and ends the run, on every exit of the loop (its end, a defect, the
       * server stopping): the end line, the recording, the run's end. A run ended elsewhere is left as it is.
       */
      const finish = (end: VoiceLoopEnd | null) =>
        Effect.gen(function* () {
          yield* audio.detach
          if (end?.reason === "run_ended") {
            return yield* Effect.logInfo(`run ${runId} ended elsewhere: its browser session is closed`)
          }
          const seconds = ((yield* Clock.currentTimeMillis) - startedAt) / 1000
          yield* report({
            type: "log",
            level: end === null || end.reason === "error" ? "error" : "info",
            message: end === null ? "The session ended: the server stopped" : endLine(end)
          })
          const wav = yield* recording.wav
          if (wav !== null) yield* report({ type: "recording", bytes: wav })
          yield* report({
            type: "ended",
            status: end?.reason === "error" ? "failed" : "completed",
            duration_seconds: Math.min(Math.max(seconds, 0), maxDurationSeconds)
          })
        })

      let ended: VoiceLoopEnd | null = null
      yield* VoiceLoop.run(
        runLoopInput({
          version,
          media: audio.media,
          report,
          addModelUsage: (usage) => Effect.asVoid(runs.addModelUsage(organizationId, runId, usage)),
          onFragment
        })
      ).pipe(
        Effect.provide(loopContext),
        Effect.provideService(VoiceLoopSettings, settings),
        Effect.raceFirst(
          Effect.as(LiveCall.untilRunEnded(runs, runId, settings.runPollMs), { reason: "run_ended" } as const)
        ),
        Effect.onExit((exit) =>
          LiveCall.endOf(exit, `run ${runId}`).pipe(
            Effect.tap((end) => {
              ended = end
            }),
            Effect.flatMap(finish)
          )
        )
      )
      return ended
    }).pipe(
      Effect.scoped,
      Effect.provideService(RecordingSpools, spools),
      Effect.catchAllCause((cause) =>
        Cause.isInterruptedOnly(cause)
          ? Effect.succeed(null)
          : Effect.as(Effect.logError(`the browser session of run ${runId} failed`, cause), null)
      ),
      Effect.withSpan("BrowserSessions.serve", { attributes: { run: runId } })
    )

  return BrowserSessions.of({ serve })
})

export const layer: Layer.Layer<
  BrowserSessions,
  never,
  CallEvents | RuntimeTools | RunStore | ConversationEngine | SpeechToText | TextToSpeech
> = Layer.effect(BrowserSessions, make)
