import { Cause, Deferred, Duration, Effect, Exit, Option, Schedule, type Scope } from "effect"
import { isFinal } from "../runs/Run.js"
import type { RunId } from "../runs/RunId.js"
import type { RunStore } from "../runs/RunStore.js"
import type { CallRecording } from "./CallRecording.js"
import type { InboundEvent, MediaSession } from "./MediaSession.js"
import type { VoiceLoopEnd } from "./VoiceLoopEnd.js"
import * as EventQueue from "./EventQueue.js"

/**
 * What a live conversation (a phone call's, a browser session's) adds around its voice loop: the audio
 * recorded on both sides — the caller's as the loop reads it, and after the loop's end by a reader of the
 * call's (until the call's audio ends, after the hang-up), so that its tail is recorded too — the run watched in
 * storage (another server, an API request or the run's deadline may end it), and the end the loop's exit
 * stands for, whatever it was.
 */

/**
 * How long, once the carrier was told to hang up, the end of the call's audio is waited for: well within
 * the carrier's final callback's wait for the hand-over (`CallAudioHandOver.handOverTimeout`, 10 s).
 */
export const audioEndTimeout = Duration.seconds(3)

export interface TappedMedia {
  /** The loop's media: the caller's audio recorded as it is read, the agent's as it is sent. */
  readonly media: MediaSession
  /** The loop ended: the caller's audio is still recorded, no longer given to it. */
  readonly detach: Effect.Effect<void>
  /** Waits (at most `within`) until the caller's side has ended (`Stopped`, the socket gone), once detached. */
  readonly ended: (within: Duration.DurationInput) => Effect.Effect<void>
}

/**
 * The loop reads the caller's events itself (`EventQueue`: no fiber, no queue between a frame and the
 * loop), each audio frame recorded before the loop sees it; once the loop has ended, `detach` starts a
 * reader of the rest, which records the audio until the caller's side ends. The two never read at once,
 * and a frame the loop did not take is the next reader's (an event leaves the queue only when it is read),
 * so the recording has every frame, in order. A frame's recording is never cut short by the loop's end.
 */
export const tap = (
  media: MediaSession,
  recording: CallRecording
): Effect.Effect<TappedMedia, never, Scope.Scope> =>
  Effect.gen(function* () {
    const scope = yield* Effect.scope
    const done = yield* Deferred.make<void>()
    const record = (event: InboundEvent): Effect.Effect<void> => {
      if (event._tag !== "Audio" || event.sample_rate !== media.sample_rate) return Effect.void
      const writes = recording.callerNow(event.samples)
      return writes === Effect.void ? writes : Effect.uninterruptible(writes)
    }
    const events = EventQueue.tapped(yield* EventQueue.fromStream(media.events), record)!
    let detached = false
    return {
      media: {
        sample_rate: media.sample_rate,
        events,
        sendAudio: (samples) => Effect.tap(media.sendAudio(samples), () => recording.agent(samples)),
        sendMark: media.sendMark,
        clear: Effect.tap(media.clear, () => recording.clear)
      },
      detach: Effect.suspend(() => {
        if (detached) return Effect.void
        detached = true
        // interruptible: detached from the call's end, a finalizer (whose forks would inherit its
        // uninterruptibility and hold the call's scope open for as long as the audio goes on)
        return Effect.interruptible(EventQueue.runForEach(events, () => Effect.void)).pipe(
          Effect.exit,
          Effect.ensuring(Deferred.succeed(done, undefined)),
          Effect.forkIn(scope),
          Effect.asVoid
        )
      }),
      // interruptible: the call's end runs as a finalizer, where a timeout could not stop the wait
      ended: (within) => Effect.ignore(Effect.timeout(Effect.interruptible(Deferred.await(done)), within))
    }
  })

/**
 * Reads the run every `interval` until it has ended (its status final, or the run gone): then succeeds.
 * The database is the source of truth, every server reads the same; a read that fails is logged and tried
 * again.
 */
export const untilRunEnded = (
  runs: RunStore["Type"],
  runId: RunId,
  interval: Duration.DurationInput
): Effect.Effect<void> =>
  runs.findAnyOrganization(runId).pipe(
    Effect.map((run) => Option.isNone(run) || isFinal(run.value.status)),
    Effect.catchAllCause((cause) =>
      Effect.as(
        Effect.logWarning(`run ${runId}: reading whether it ended failed; trying again`, cause),
        false
      )
    ),
    Effect.repeat({ schedule: Schedule.spaced(interval), until: (ended) => ended }),
    Effect.asVoid
  )

/** The end a loop's exit stands for: its own, the server stopping (null), or a defect (logged). */
export const endOf = (exit: Exit.Exit<VoiceLoopEnd>, what: string): Effect.Effect<VoiceLoopEnd | null> =>
  Exit.isSuccess(exit)
    ? Effect.succeed(exit.value)
    : Cause.isInterruptedOnly(exit.cause)
      ? Effect.succeed(null)
      : Effect.as(Effect.logError(`the voice loop of ${what} died`, exit.cause), {
          reason: "error",
          source: "voice_loop",
          error: "Defect"
        } as const)
