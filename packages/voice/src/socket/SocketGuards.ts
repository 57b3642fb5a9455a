import { MediaSessionFailed } from "@voice-agent-platform/core/voice/LiveCallErrors.js"
import { Duration, Effect, Queue, type Scope, Take } from "effect"
import WebSocket from "ws"

/**
 * The limits that keep a media socket (Twilio's, a browser's) from holding a call or memory forever: an
 * idle deadline (no frame — nor, where pings are sent, a pong — for `idleTimeout` ends the session), pings
 * (`pingInterval`, the browser's sockets: a peer whose connection died answers none), a bounded inbound
 * queue (more than `maxQueued` events the call has not read yet end the session: a peer sending faster
 * than real time, or a call stalled, is not buffered without end), and a guarded send (more than
 * `maxBufferedBytes` not yet flushed to the peer, or a send not flushed within `sendTimeout`, fail it: a
 * peer that stops reading cannot make the server buffer the agent's audio). Every limit ends the session
 * with `MediaSessionFailed`, which ends the call as a dropped socket does. Defaults in
 * docs/configuration.md ("Media sockets").
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
  /** Sends one frame within the limits. */
  readonly send: (frame: string | Uint8Array) => Effect.Effect<void, MediaSessionFailed>
}

/**
 * Guards `socket`'s session: `inbound` is its queue of events (room for `maxQueued` and the end), `end`
 * ends it with a failure. The idle watch (and pings) run in the scope, on Effect's clock.
 */
export const guard = <A>(
  socket: WebSocket,
  inbound: Queue.Queue<Take.Take<A, MediaSessionFailed>>,
  end: (take: Take.Take<A, MediaSessionFailed>) => void,
  limits: Limits
): Effect.Effect<Guarded<A>, never, Scope.Scope> =>
  Effect.gen(function* () {
    let frames = 0
    const idle = Duration.toMillis(Duration.decode(limits.idleTimeout))
    const ping = limits.pingInterval === null ? null : Duration.toMillis(Duration.decode(limits.pingInterval))
    // the watch wakes a few times within the deadline: a session ends at most a quarter of it late
    const tick = Math.max(1, Math.min(idle / 4, ping ?? Infinity))
    socket.on("pong", () => void frames++)
    yield* Effect.forkScoped(
      Effect.gen(function* () {
        let last = frames
        let quiet = 0
        let sincePing = 0
        for (;;) {
          yield* Effect.sleep(Duration.millis(tick))
          quiet = frames === last ? quiet + tick : 0
          last = frames
          if (quiet >= idle) {
            return end(Take.fail(failed(`no frame for ${Math.round(idle / 1000)} s`)))
          }
          sincePing += tick
          if (ping !== null && sincePing >= ping && socket.readyState === WebSocket.OPEN) {
            sincePing = 0
            socket.ping()
          }
        }
      })
    )
    return {
      seen: () => void frames++,
      offer: (event) => {
        const queued = inbound.unsafeSize()
        if (queued._tag === "Some" && queued.value >= limits.maxQueued) {
          end(Take.fail(failed(`more than ${limits.maxQueued} events waited to be read`)))
          return false
        }
        return Queue.unsafeOffer(inbound, Take.of(event))
      },
      send: (frame) =>
        Effect.async<void, MediaSessionFailed>((resume) => {
          if (socket.readyState !== WebSocket.OPEN) return resume(Effect.fail(failed("the socket is closed")))
          if (socket.bufferedAmount > limits.maxBufferedBytes) {
            return resume(Effect.fail(failed("the peer reads too slowly: too much waits to be sent")))
          }
          socket.send(frame, { binary: typeof frame !== "string" }, (error) =>
            resume(error === undefined || error === null ? Effect.void : Effect.fail(failed("a send failed")))
          )
        }).pipe(
          Effect.timeoutFail({
            duration: limits.sendTimeout,
            onTimeout: () => failed("a send was not flushed in time: the peer reads too slowly")
          })
        )
    }
  })
