import { Cause, Deferred, Duration, Effect, Exit, Option, Queue, Schedule, type Scope, Take } from "effect"
import { isFinal } from "../runs/Run.js"
import type { RunId } from "../runs/RunId.js"
import type { RunStore } from "../runs/RunStore.js"
import type { CallRecording } from "./CallRecording.js"
import type { InboundEvent, MediaSession } from "./MediaSession.js"
import type { MediaSessionFailed } from "./LiveCallErrors.js"
import type { VoiceLoopEnd } from "./VoiceLoopEnd.js"
import * as TakeStream from "./TakeStream.js"

/**
 * What a live conversation (a phone call's, a browser session's) adds around its voice loop: the audio
 * recorded on both sides — the caller's read by a fiber of the call, not the loop, so that the audio after
 * the loop's end (until the call's audio ends, after the hang-up) is recorded too — the run watched in
 * storage (another server, an API request or the run's deadline may end it), and the end the loop's exit
 * stands for, whatever it was.
 */

/**
 * How long, once the carrier was told to hang up, the end of the call's audio is waited for: well within
 * the carrier's final callback's wait for the hand-over (`CallAudioHandOver.handOverTimeout`, 10 s).
 */
export const audioEndTimeout = Duration.seconds(3)

/** How many of the caller's events wait for the loop before its reading waits (backpressure). */
const forwardCapacity = 64

export interface TappedMedia {
  /** The loop's media: the caller's audio recorded as it is read, the agent's as it is sent. */
  readonly media: MediaSession
  /** The loop ended: the caller's audio is still recorded, no longer given to it. */
  readonly detach: Effect.Effect<void>
  /** Waits (at most `within`) until the caller's side has ended (`Stopped`, the socket gone). */
  readonly ended: (within: Duration.DurationInput) => Effect.Effect<void>
}

export const tap = (
  media: MediaSession,
  recording: CallRecording
): Effect.Effect<TappedMedia, never, Scope.Scope> =>
  Effect.gen(function* () {
    const forward = yield* Queue.bounded<Take.Take<InboundEvent, MediaSessionFailed>>(forwardCapacity)
    const done = yield* Deferred.make<void>()
    let attached = true
    const give = (take: Take.Take<InboundEvent, MediaSessionFailed>) =>
      attached ? Queue.offer(forward, take) : Effect.void
    yield* TakeStream.runForEach(media.events, (event) =>
      Effect.zipRight(
        event._tag === "Audio" && event.sample_rate === media.sample_rate
          ? recording.caller(event.samples)
          : Effect.void,
        give(Take.of(event))
      )
    ).pipe(
      Effect.exit,
      Effect.flatMap((exit) =>
        give(Exit.isSuccess(exit) ? Take.end : Take.failCause(exit.cause as Cause.Cause<MediaSessionFailed>))
      ),
      Effect.ensuring(Deferred.succeed(done, undefined)),
      Effect.forkScoped
    )
    return {
      media: {
        sample_rate: media.sample_rate,
        events: TakeStream.fromQueue(forward),
        sendAudio: (samples) => Effect.tap(media.sendAudio(samples), () => recording.agent(samples)),
        sendMark: media.sendMark,
        clear: Effect.tap(media.clear, () => recording.clear)
      },
      detach: Effect.suspend(() => {
        attached = false
        // a reading waiting for room goes on
        return Effect.asVoid(Queue.takeAll(forward))
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
