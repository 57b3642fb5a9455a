import type {
  Session,
  SessionOptions,
  TranscriptEvent
} from "@voice-agent-platform/core/voice/SpeechToText.js"
import {
  type SpeechToTextError,
  SpeechToTextDeadline,
  SpeechToTextDropped,
  SpeechToTextUnavailable
} from "@voice-agent-platform/core/voice/SpeechToTextErrors.js"
import { Clock, Deferred, Duration, Effect, Either, Exit, type Scope } from "effect"
import { WebSocket } from "ws"
import * as DeepgramMessages from "./DeepgramMessages.js"
import { closeReason, refusal } from "./ListenRequest.js"
import * as EventQueue from "@voice-agent-platform/core/voice/EventQueue.js"

/**
 * One live session over a WebSocket: binary audio frames out, Deepgram's messages in as transcript
 * events, `KeepAlive` while no audio flows, `CloseStream` to finish. The socket's callbacks only record
 * what happened (a queue of events, two signals); everything else runs on the session's fibers. Closing
 * the session's scope closes the socket (and, past a short grace, destroys it), finished or not.
 */

/** How a session is bounded; the adapter's options with their defaults applied. */
export interface Bounds {
  readonly connectTimeoutMs: number
  readonly finishTimeoutMs: number
  readonly keepAliveMs: number
  /** The most audio bytes waiting to be written before the session fails as a provider too slow. */
  readonly maxBufferedBytes: number
  /** The largest message accepted from the provider. */
  readonly maxMessageBytes: number
}

/** How long a closing handshake may take before the socket is destroyed. */
const closeGraceMs = 1000

/** A session on `url`, its key sent as `Authorization: Token …` (and nowhere else). */
export const open = (
  url: string,
  authorization: string,
  session: SessionOptions,
  bounds: Bounds
): Effect.Effect<Session, SpeechToTextError, Scope.Scope> =>
  Effect.gen(function* () {
    const queue = EventQueue.make<TranscriptEvent, SpeechToTextError>()
    // the session closed: a reader still waiting sees the end
    yield* Effect.addFinalizer(() => Effect.sync(queue.end))
    const opened = yield* Deferred.make<void, SpeechToTextError>()
    const closed = yield* Deferred.make<void>()
    let phase: "connecting" | "open" | "finishing" | "releasing" | "closed" = "connecting"
    let failure: SpeechToTextError | null = null
    // the clock read on every frame sent, without a step of its own
    const clock = yield* Effect.clock
    let lastSentAt = clock.unsafeCurrentTimeMillis()

    /** The session's failure, reported once: to the opening or to the events. */
    const fail = (error: SpeechToTextError) => {
      if (failure !== null) return
      failure = error
      if (phase === "connecting") Deferred.unsafeDone(opened, Exit.fail(error))
      else queue.fail(error)
    }

    const socket = yield* Effect.acquireRelease(
      // created and listened to in one step, so no event (an error above all) finds no listener
      Effect.sync(() => {
        const socket = new WebSocket(url, {
          headers: { authorization },
          perMessageDeflate: false,
          maxPayload: bounds.maxMessageBytes,
          followRedirects: false
        })
        socket.binaryType = "nodebuffer"
        socket.on("open", () => {
          phase = "open"
          Deferred.unsafeDone(opened, Exit.void)
        })
        socket.on("unexpected-response", (_request, response) => {
          response.resume()
          fail(refusal(response.statusCode ?? 0, session))
          socket.terminate()
        })
        socket.on("error", (error: NodeJS.ErrnoException) => {
          // once open, the close that follows says what happened
          if (phase !== "connecting") return
          const code =
            typeof error.code === "string" && /^[A-Z0-9_]{1,40}$/.test(error.code) ? error.code : null
          fail(
            new SpeechToTextUnavailable({
              reason: `could not connect to the provider${code === null ? "" : ` (${code})`}: check DEEPGRAM_URL`
            })
          )
        })
        socket.on("message", (data, isBinary) => {
          if (failure !== null || phase === "closed") return
          const event = isBinary
            ? Either.left(new SpeechToTextUnavailable({ reason: "the provider sent a binary message" }))
            : DeepgramMessages.eventOf(data.toString())
          if (Either.isLeft(event)) {
            fail(event.left)
            socket.terminate()
          } else if (event.right !== null) {
            queue.offer(event.right)
          }
        })
        socket.on("close", (code, reason) => {
          const was = phase
          phase = "closed"
          if (failure === null) {
            if (was === "releasing" || (was === "finishing" && (code === 1000 || code === 1005))) {
              queue.end()
            } else {
              const said = closeReason(reason.toString())
              fail(
                new SpeechToTextDropped({
                  reason: `the provider closed the connection before the session finished (${code}${said === null ? "" : `, ${said}`})`,
                  close_code: code
                })
              )
            }
          }
          Deferred.unsafeDone(closed, Exit.void)
        })
        return socket
      }),
      (socket) =>
        Effect.suspend(() => {
          if (phase === "closed") return Effect.void
          if (phase !== "connecting") {
            phase = "releasing"
            socket.close(1000)
          } else {
            socket.terminate()
          }
          return Deferred.await(closed).pipe(
            Effect.timeout(Duration.millis(closeGraceMs)),
            Effect.ignore,
            Effect.ensuring(Effect.sync(() => socket.terminate()))
          )
        })
    )

    yield* Deferred.await(opened).pipe(
      Effect.timeoutFail({
        duration: Duration.millis(bounds.connectTimeoutMs),
        onTimeout: () => new SpeechToTextDeadline({ step: "connect", timeout_ms: bounds.connectTimeoutMs })
      })
    )
    lastSentAt = yield* Clock.currentTimeMillis

    // KeepAlive when nothing was sent for keepAliveMs, until the audio ends
    yield* Effect.forkScoped(
      Effect.gen(function* () {
        while (phase === "open") {
          const now = yield* Clock.currentTimeMillis
          const due = lastSentAt + bounds.keepAliveMs
          if (now < due) {
            yield* Effect.sleep(Duration.millis(due - now))
            continue
          }
          socket.send(DeepgramMessages.keepAlive)
          lastSentAt = now
        }
      })
    )

    const finishDeadline = new SpeechToTextDeadline({ step: "finish", timeout_ms: bounds.finishTimeoutMs })
    const outcome = Effect.suspend(() => (failure === null ? Effect.void : Effect.fail(failure)))

    return {
      send: (audio) =>
        Effect.suspend(() => {
          if (failure !== null) return Effect.fail(failure)
          // an empty binary frame is Deepgram's old way of ending the stream: never sent
          if (phase !== "open" || audio.length === 0) return Effect.void
          if (socket.bufferedAmount > bounds.maxBufferedBytes) {
            fail(
              new SpeechToTextUnavailable({
                reason: "the provider is not taking the audio as fast as it comes"
              })
            )
            socket.terminate()
            return outcome
          }
          socket.send(audio, { binary: true })
          lastSentAt = clock.unsafeCurrentTimeMillis()
          return Effect.void
        }),
      events: queue.stream,
      finish: Effect.suspend(() => {
        if (phase === "open") {
          phase = "finishing"
          socket.send(DeepgramMessages.closeStream)
        }
        return Deferred.await(closed).pipe(
          Effect.timeoutFail({
            duration: Duration.millis(bounds.finishTimeoutMs),
            onTimeout: () => finishDeadline
          }),
          Effect.catchAll(() =>
            Effect.sync(() => {
              fail(finishDeadline)
              socket.terminate()
            })
          ),
          Effect.zipRight(outcome)
        )
      })
    } satisfies Session
  })
