import { Effect, Queue, Ref, Take } from "effect"
import { textFrame } from "./EmbeddedSpeechToText.js"
import { type InboundEvent, type MediaSession } from "./MediaSession.js"
import { MediaSessionFailed } from "./LiveCallErrors.js"
import * as TakeStream from "./TakeStream.js"

/**
 * A media session in memory, for tests and the simulator: the test plays the caller's side (`push`,
 * `say`, `press`, `hangUp`) and reads what the agent's side sent (`sent`, `next`). Marks are echoed at
 * once (audio "plays" instantly) unless `echoMarks` is false; then the test echoes them (`echo`), and a
 * `clear` echoes the ones still queued, as Twilio does.
 */

/** What the agent's side sent, in order. */
export type OutboundEvent =
  | { readonly _tag: "Audio"; readonly samples: Int16Array }
  | { readonly _tag: "Mark"; readonly name: string }
  | { readonly _tag: "Clear" }

export interface Options {
  /** Default 8000 (a phone call). */
  readonly sample_rate?: number
  /** Echo each mark as soon as it is sent (default true). */
  readonly echoMarks?: boolean
}

export interface MemoryMediaSession extends MediaSession {
  /** Sends an event from the caller's side (`Stopped` ends the events). */
  readonly push: (event: InboundEvent) => Effect.Effect<void>
  /** The caller says `text`: one audio frame the embedded speech-to-text hears as those words. */
  readonly say: (text: string) => Effect.Effect<void>
  /** The caller presses a key. */
  readonly press: (digit: string) => Effect.Effect<void>
  /** The caller hangs up (`Stopped`). */
  readonly hangUp: Effect.Effect<void>
  /** The transport drops: the events fail and anything sent after fails. */
  readonly drop: (reason: string) => Effect.Effect<void>
  /** Echoes a mark (when `echoMarks` is false). */
  readonly echo: (name: string) => Effect.Effect<void>
  /** The marks sent and not echoed yet, oldest first. */
  readonly pendingMarks: Effect.Effect<ReadonlyArray<string>>
  /** Everything the agent's side sent so far. */
  readonly sent: Effect.Effect<ReadonlyArray<OutboundEvent>>
  /** The next event sent that `next` has not given yet (waits for it). */
  readonly next: Effect.Effect<OutboundEvent>
}

/**
 * `text` as the embedded speech-to-text's text frame inside PCM16 samples: the frame's bytes, read as
 * little-endian samples (padded with a space to whole samples), give the frame back when encoded again.
 */
export const speechSamples = (text: string): Int16Array => {
  const bytes = textFrame(text)
  const even = bytes.length % 2 === 0 ? bytes : textFrame(`${text} `)
  const view = new DataView(even.buffer, even.byteOffset, even.byteLength)
  const samples = new Int16Array(even.length / 2)
  for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(i * 2, true)
  return samples
}

export const make = (options: Options = {}): Effect.Effect<MemoryMediaSession> =>
  Effect.gen(function* () {
    const sample_rate = options.sample_rate ?? 8000
    const echoMarks = options.echoMarks ?? true
    const inbound = yield* Queue.unbounded<Take.Take<InboundEvent, MediaSessionFailed>>()
    const outbound = yield* Queue.unbounded<OutboundEvent>()
    const sentRef = yield* Ref.make<ReadonlyArray<OutboundEvent>>([])
    const pending = yield* Ref.make<ReadonlyArray<string>>([])
    const dropped = yield* Ref.make<string | null>(null)

    const push = (event: InboundEvent) =>
      Queue.offerAll(inbound, event._tag === "Stopped" ? [Take.of(event), Take.end] : [Take.of(event)]).pipe(
        Effect.asVoid
      )
    const echo = (name: string) =>
      Effect.flatMap(
        Ref.modify(pending, (all) => [all.includes(name), all.filter((n) => n !== name)] as const),
        (was) => (was ? push({ _tag: "Mark", name }) : Effect.void)
      )
    const send = (event: OutboundEvent) =>
      Effect.flatMap(Ref.get(dropped), (reason) =>
        reason !== null
          ? Effect.fail(new MediaSessionFailed({ reason }))
          : Effect.zipRight(
              Ref.update(sentRef, (all) => [...all, event]),
              Queue.offer(outbound, event)
            ).pipe(Effect.asVoid)
      )

    const session: MemoryMediaSession = {
      sample_rate,
      events: TakeStream.fromQueue(inbound),
      sendAudio: (samples) => send({ _tag: "Audio", samples }),
      sendMark: (name) =>
        send({ _tag: "Mark", name }).pipe(
          Effect.zipRight(Ref.update(pending, (all) => [...all, name])),
          Effect.zipRight(echoMarks ? echo(name) : Effect.void)
        ),
      clear: send({ _tag: "Clear" }).pipe(
        Effect.zipRight(Ref.getAndSet(pending, [])),
        Effect.flatMap((names) => Effect.forEach(names, (name) => push({ _tag: "Mark", name }))),
        Effect.asVoid
      ),
      push,
      say: (text) => push({ _tag: "Audio", sample_rate, samples: speechSamples(text) }),
      press: (digit) => push({ _tag: "Dtmf", digit }),
      hangUp: push({ _tag: "Stopped" }),
      drop: (reason) =>
        Effect.zipRight(
          Ref.set(dropped, reason),
          Queue.offer(inbound, Take.fail(new MediaSessionFailed({ reason })))
        ).pipe(Effect.asVoid),
      echo,
      pendingMarks: Ref.get(pending),
      sent: Ref.get(sentRef),
      next: Queue.take(outbound)
    }
    return session
  })
