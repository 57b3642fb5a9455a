import { type InboundEvent, type MediaSession } from "@voice-agent-platform/core/voice/MediaSession.js"
import { MediaSessionFailed } from "@voice-agent-platform/core/voice/LiveCallErrors.js"
import { Deferred, Duration, Effect, Either, type Scope } from "effect"
import WebSocket from "ws"
import * as MediaStreamMessages from "./MediaStreamMessages.js"
import * as MuLaw from "./MuLaw.js"
import * as SocketGuards from "../socket/SocketGuards.js"
import * as EventQueue from "@voice-agent-platform/core/voice/EventQueue.js"

/**
 * The `MediaSession` over a Twilio Media Streams socket the server accepted (`ws`): Twilio's `connected`
 * and `start` are read first (the call's `callSid` and the stream's `streamSid`); then `media` frames
 * (μ-law 8 kHz, base64) become `Audio` (PCM16), `dtmf` `Dtmf`, an echoed `mark` `Mark`, and `stop` (or the
 * socket closing cleanly) `Stopped`. Outbound, the agent's PCM16 is μ-law encoded and sent in 20 ms frames
 * (a partial frame waits for the next audio; a mark sends it first, padded with μ-law silence, so the
 * mark follows all the audio before it); `clear` drops the partial frame and tells Twilio to drop what it
 * queued. A frame that is not the protocol's, a socket that drops, or a send that fails ends the session
 * with `MediaSessionFailed`, as does a limit of `SocketGuards` (no frame for 10 s, 1000 events unread,
 * sends waiting with none flushed for 10 s, 1 MiB unflushed). The socket is closed with the scope.
 */

/** How long Twilio may take to say `start` once the socket is open. */
export const defaultStartTimeout = Duration.seconds(10)

/** μ-law's silence: what pads a partial frame before a mark. */
const mulawSilence = 0xff

export interface TwilioMediaSession {
  readonly callSid: string
  /** The account the stream's `start` names (null when it names none): the server checks it is its own. */
  readonly accountSid: string | null
  readonly streamSid: string
  readonly session: MediaSession
}

const failed = (reason: string) => new MediaSessionFailed({ reason })

export const make = (
  socket: WebSocket,
  options: {
    readonly startTimeout?: Duration.DurationInput
    readonly limits?: Partial<SocketGuards.Limits>
  } = {}
): Effect.Effect<TwilioMediaSession, MediaSessionFailed, Scope.Scope> =>
  Effect.gen(function* () {
    const inbound = EventQueue.make<InboundEvent, MediaSessionFailed>()
    const started = yield* Deferred.make<
      { callSid: string; accountSid: string | null; streamSid: string },
      MediaSessionFailed
    >()
    /** The stream's end: the caller gone (`Stopped` first) or a failure. */
    const stop = () => {
      if (inbound.isDone()) return
      inbound.offer({ _tag: "Stopped" })
      inbound.end()
    }
    const fail = (reason: string) => {
      Deferred.unsafeDone(started, Effect.fail(failed(reason)))
      inbound.fail(failed(reason))
    }

    const guarded = yield* SocketGuards.guard(
      socket,
      inbound,
      (failure) => {
        // a no-op once the stream started
        Deferred.unsafeDone(started, Effect.fail(failed("the stream ended before it started")))
        inbound.fail(failure)
      },
      { ...SocketGuards.twilioLimits, ...options.limits }
    )
    socket.on("message", (data, isBinary) => {
      if (inbound.isDone()) return
      guarded.seen()
      if (isBinary) return fail("a binary frame is not the protocol's")
      const decoded = MediaStreamMessages.decodeInbound(data.toString())
      if (Either.isLeft(decoded)) return fail(decoded.left.reason)
      const message = decoded.right
      switch (message.event) {
        case "connected":
          return
        case "start":
          Deferred.unsafeDone(
            started,
            Effect.succeed({
              callSid: message.start.callSid,
              accountSid: message.start.accountSid ?? null,
              streamSid: message.streamSid
            })
          )
          return
        case "media":
          guarded.offer({
            _tag: "Audio",
            sample_rate: MuLaw.sampleRate,
            samples: MuLaw.decode(message.media.payload)
          })
          return
        case "dtmf":
          guarded.offer({ _tag: "Dtmf", digit: message.dtmf.digit })
          return
        case "mark":
          guarded.offer({ _tag: "Mark", name: message.mark.name })
          return
        case "stop":
          Deferred.unsafeDone(started, Effect.fail(failed("the stream stopped before it started")))
          stop()
          return
      }
    })
    socket.on("close", (code) => {
      // Twilio closes after `stop`; a close without one is the socket dropping
      Deferred.unsafeDone(
        started,
        Effect.fail(failed(`the socket closed (${code}) before the stream started`))
      )
      if (code === 1000) stop()
      else fail(`the socket closed (${code})`)
    })
    socket.on("error", (error) =>
      fail(`the socket failed (${(error as NodeJS.ErrnoException).code ?? "error"})`)
    )
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING)
          socket.close(1000)
      })
    )

    const { accountSid, callSid, streamSid } = yield* Deferred.await(started).pipe(
      Effect.timeoutFail({
        duration: options.startTimeout ?? defaultStartTimeout,
        onTimeout: () => failed("Twilio did not start the stream in time")
      })
    )

    const sendText = guarded.send

    // the μ-law bytes waiting to fill a 20 ms frame
    let partial = new Uint8Array(0)
    /** The frames in order, in one step: up to the first that cannot go, whose failure it is. */
    const sendFrames = (frames: ReadonlyArray<Uint8Array>) =>
      Effect.suspend(() => {
        for (const frame of frames) {
          const refused = guarded.sendNow(MediaStreamMessages.media(streamSid, frame))
          if (refused !== null) return Effect.fail(refused)
        }
        return Effect.void
      })

    const session: MediaSession = {
      sample_rate: MuLaw.sampleRate,
      events: inbound.stream,
      sendAudio: (samples) =>
        Effect.suspend(() => {
          const encoded = MuLaw.encode(samples)
          const joined = new Uint8Array(partial.length + encoded.length)
          joined.set(partial)
          joined.set(encoded, partial.length)
          const whole = joined.length - (joined.length % MuLaw.frameBytes)
          partial = joined.slice(whole)
          return sendFrames(MuLaw.frames(joined.subarray(0, whole)))
        }),
      sendMark: (name) =>
        Effect.suspend(() => {
          const flush =
            partial.length === 0
              ? Effect.void
              : Effect.suspend(() => {
                  const frame = new Uint8Array(MuLaw.frameBytes).fill(mulawSilence)
                  frame.set(partial)
                  partial = new Uint8Array(0)
                  return sendFrames([frame])
                })
          return Effect.zipRight(flush, sendText(MediaStreamMessages.mark(streamSid, name)))
        }),
      clear: Effect.suspend(() => {
        partial = new Uint8Array(0)
        return sendText(MediaStreamMessages.clear(streamSid))
      })
    }
    return { callSid, accountSid, streamSid, session }
  })
