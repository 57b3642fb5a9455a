import { MediaSessionFailed } from "@voice-agent-platform/core/voice/LiveCallErrors.js"
import type { EventQueue } from "@voice-agent-platform/core/voice/EventQueue.js"
import { Duration, Effect, type Scope } from "effect"
import WebSocket from "ws"

/**
 * The limits that keep a media socket (Twilio's, a browser's) from holding a call or memory forever: an
 * idle deadline (no frame — nor, where pings are sent, a pong — for `idleTimeout` ends the session), pings
 * (`pingInterval`, the browser's sockets: a peer whose connection died answers none), a bounded inbound
 * queue (more than `maxQueued` events the call has not read yet end the session: a peer sending faster
 * than real time, or a call stalled, is not buffered without end), and a guarded send (more than
 * `maxBufferedBytes` not yet flushed to the peer fails it; sends waiting to be flushed with none flushed
 * for `sendTimeout` end the session: a peer that stops reading cannot make the server buffer the agent's
 * audio). Every limit ends the session with `MediaSessionFailed`, which ends the call as a dropped socket
 * does. Defaults in docs/configuration.md ("Media sockets").
 */

export interface Limits {
  readonly idleTimeout: Duration.DurationInput
  /** null: no pings (Twilio sends audio all the call long). */
  readonly pingInterval: Duration.DurationInput | null
  readonly maxQueued: number
  readonly sendTimeout: Duration.DurationInput
  readonly maxBufferedBytes: number
}

/** Twilio sends a media frame every 20 ms for the whole call: 10 s without one is a dead stream. */
export const twilioLimits: Limits = {
  idleTimeout: Duration.seconds(10),
  pingInterval: null,
  maxQueued: 1000,
  sendTimeout: Duration.seconds(10),
  maxBufferedBytes: 1024 * 1024
}

/** A browser may send no audio for a while (muted): pings every 10 s, 30 s without a frame or a pong. */
export const browserLimits: Limits = {
  idleTimeout: Duration.seconds(30),
  pingInterval: Duration.seconds(10),
  maxQueued: 1000,
  sendTimeout: Duration.seconds(10),
  maxBufferedBytes: 2 * 1024 * 1024
}

const failed = (reason: string) => new MediaSessionFailed({ reason })

export interface Guarded<A> {
  /** Offers an inbound event; false (and the session ended) when the queue is full. */
  readonly offer: (event: A) => boolean
  /** A frame (or pong) arrived: the idle deadline starts again. */
  readonly seen: () => void
  /**
   * Sends one frame within the limits, without waiting for it to be flushed (the watch ends the session
   * when the peer stops taking them); fails once the session failed (a send that failed, a stalled peer).
   */
  readonly send: (frame: string | Uint8Array) => Effect.Effect<void, MediaSessionFailed>
  /** `send` as a plain call (for many frames at once): the failure, or null when the frame went. */
  readonly sendNow: (frame: string | Uint8Array) => MediaSessionFailed | null
}

/**
 * Guards `socket`'s session: `inbound` is its queue of events (room for `maxQueued`), `end` ends it with a
 * failure. The watch (idle deadline, pings, stalled sends) runs in the scope, on Effect's
 * clock: a session ends at most a quarter of a deadline late. A send is one call to the socket, not an
 * effect waiting for its flush under a timeout (a fiber and a timer for every 20 ms frame).
 */
export const guard = <A>(
  socket: WebSocket,
  inbound: EventQueue<A, MediaSessionFailed>,
  end: (failure: MediaSessionFailed) => void,
  limits: Limits
): Effect.Effect<Guarded<A>, never, Scope.Scope> =>
  Effect.gen(function* () {
    let frames = 0
    // sends made and sends flushed (the socket calls back in order), and the first failure
    let sent = 0
    let flushed = 0
    let failure: MediaSessionFailed | null = null
    /** Ends the session with its first failure, and answers that one. */
    const fail = (reason: string): MediaSessionFailed => {
      if (failure === null) {
        failure = failed(reason)
        end(failure)
      }
      return failure
    }
    const idle = Duration.toMillis(Duration.decode(limits.idleTimeout))
    const flushWithin = Duration.toMillis(Duration.decode(limits.sendTimeout))
    const ping = limits.pingInterval === null ? null : Duration.toMillis(Duration.decode(limits.pingInterval))
    // the watch wakes a few times within each deadline (a session ends at most a quarter of one late),
    // and a whole number of times a ping interval (pings go out on time)
    const wake = Math.max(1, Math.min(idle / 4, flushWithin / 4))
    const tick = ping === null ? wake : ping / Math.ceil(ping / Math.min(wake, ping))
    const clock = yield* Effect.clock
    // when the last frame was seen, and when sends were last flushed (or the first began to wait)
    let seenAt = clock.unsafeCurrentTimeMillis()
    let flushedAt = seenAt
    socket.on("pong", () => void frames++)
    yield* Effect.forkScoped(
      Effect.gen(function* () {
        let last = frames
        let pingedAt = seenAt
        for (;;) {
          yield* Effect.sleep(Duration.millis(tick))
          const now = clock.unsafeCurrentTimeMillis()
          if (frames !== last) seenAt = now
          last = frames
          if (now - seenAt >= idle) {
            return end(failed(`no frame for ${Math.round(idle / 1000)} s`))
          }
          if (sent > flushed && now - flushedAt >= flushWithin) {
            return void fail("a send was not flushed in time: the peer reads too slowly")
          }
          if (ping !== null && now - pingedAt >= ping && socket.readyState === WebSocket.OPEN) {
            pingedAt = now
            socket.ping()
          }
        }
      })
    )
    const sendNow = (frame: string | Uint8Array): MediaSessionFailed | null => {
      if (failure !== null) return failure
      if (socket.readyState !== WebSocket.OPEN) return failed("the socket is closed")
      if (socket.bufferedAmount > limits.maxBufferedBytes) {
        return fail("the peer reads too slowly: too much waits to be sent")
      }
      // nothing waited: the flush deadline counts from this send
      if (sent === flushed) flushedAt = clock.unsafeCurrentTimeMillis()
      sent++
      socket.send(frame, { binary: typeof frame !== "string" }, (error) => {
        flushed++
        flushedAt = clock.unsafeCurrentTimeMillis()
        if (error !== undefined && error !== null) fail("a send failed")
      })
      return null
    }
    return {
      seen: () => void frames++,
      offer: (event) => {
        if (inbound.size() >= limits.maxQueued) {
          end(failed(`more than ${limits.maxQueued} events waited to be read`))
          return false
        }
        inbound.offer(event)
        return true
      },
      send: (frame) =>
        Effect.suspend(() => {
          const refused = sendNow(frame)
          return refused === null ? Effect.void : Effect.fail(refused)
        }),
      sendNow
    }
  })
