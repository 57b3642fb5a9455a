import { describe, expect, it } from "@effect/vitest"
import type { MediaSessionFailed } from "@voice-agent-platform/core/voice/LiveCallErrors.js"
import * as EventQueue from "@voice-agent-platform/core/voice/EventQueue.js"
import { Duration, Effect, Either, Stream, TestClock } from "effect"
import { EventEmitter } from "node:events"
import type WebSocket from "ws"
import * as SocketGuards from "../../src/socket/SocketGuards.js"

/** A socket that is open and sends nothing anywhere: its sends call back only when told (`flush`). */
class StubSocket extends EventEmitter {
  readyState = 1
  bufferedAmount = 0
  pings = 0
  pending: Array<(error?: Error) => void> = []
  send(_frame: unknown, _options: unknown, callback: (error?: Error) => void) {
    this.pending.push(callback)
  }
  ping() {
    this.pings++
  }
  flush() {
    for (const callback of this.pending.splice(0)) callback()
  }
}

const limits: SocketGuards.Limits = {
  idleTimeout: Duration.seconds(8),
  pingInterval: Duration.seconds(2),
  maxQueued: 3,
  sendTimeout: Duration.seconds(5),
  maxBufferedBytes: 1000
}

/** Lets forked fibers start (their sleeps then count from now). */
const settle = Effect.repeatN(Effect.yieldNow(), 20)

const guarded = Effect.gen(function* () {
  const socket = new StubSocket()
  const inbound = EventQueue.make<number, MediaSessionFailed>()
  const guard = yield* SocketGuards.guard(socket as unknown as WebSocket, inbound, inbound.fail, limits)
  yield* settle
  const events = Effect.either(Stream.runCollect(inbound.stream))
  return { socket, guard, events, isEnded: () => inbound.isDone() }
})

describe("SocketGuards", () => {
  it.scoped("pings every interval; a peer silent past the idle deadline ends the session", () =>
    Effect.gen(function* () {
      const { socket, guard, events, isEnded } = yield* guarded
      yield* TestClock.adjust("6 seconds")
      expect(socket.pings).toBe(3)
      guard.seen() // a pong
      yield* TestClock.adjust("6 seconds")
      expect(isEnded()).toBe(false)
      // quiet since the first watch after the pong (8 s): ended at most a quarter of the deadline late
      yield* TestClock.adjust("4 seconds")
      const result = yield* events
      expect(Either.isLeft(result) && result.left.reason).toBe("no frame for 8 s")
    })
  )

  it.scoped("more events waiting than the bound end the session; those before are read", () =>
    Effect.gen(function* () {
      const { guard, events } = yield* guarded
      expect([1, 2, 3, 4, 5].map((n) => guard.offer(n))).toEqual([true, true, true, false, false])
      const result = yield* events
      expect(Either.isLeft(result) && result.left.reason).toBe("more than 3 events waited to be read")
    })
  )

  it.scoped(
    "sends that wait unflushed past the deadline end the session; past the buffered bytes a send fails",
    () =>
      Effect.gen(function* () {
        const { socket, guard, events, isEnded } = yield* guarded
        /** Time passes while the peer's frames arrive (the idle deadline is not what ends it). */
        const pass = (seconds: number) =>
          Effect.gen(function* () {
            for (let i = 0; i < seconds; i++) {
              guard.seen()
              yield* TestClock.adjust("1 second")
            }
          })
        // a send does not wait for its flush
        yield* guard.send("hello")
        yield* pass(4)
        // flushed in time, then another that waits: the deadline counts from it
        socket.flush()
        yield* guard.send("again")
        yield* pass(4)
        expect(isEnded()).toBe(false)
        yield* pass(2)
        const result = yield* events
        expect(Either.isLeft(result) && result.left.reason).toBe(
          "a send was not flushed in time: the peer reads too slowly"
        )
        // the session failed: so does every send after
        const after = yield* Effect.flip(guard.send("more"))
        expect(after.reason).toBe("a send was not flushed in time: the peer reads too slowly")
      })
  )

  it.scoped("more than the buffered bytes waiting fail the send and end the session", () =>
    Effect.gen(function* () {
      const { socket, guard, events } = yield* guarded
      socket.bufferedAmount = 1001
      const refused = yield* Effect.flip(guard.send(new Uint8Array(10)))
      expect(refused.reason).toBe("the peer reads too slowly: too much waits to be sent")
      const result = yield* events
      expect(Either.isLeft(result) && result.left.reason).toBe(
        "the peer reads too slowly: too much waits to be sent"
      )
    })
  )

  it.scoped("a send the socket reports failed ends the session", () =>
    Effect.gen(function* () {
      const { socket, guard, events } = yield* guarded
      yield* guard.send("hello")
      for (const callback of socket.pending.splice(0)) callback(new Error("EPIPE"))
      const result = yield* events
      expect(Either.isLeft(result) && result.left.reason).toBe("a send failed")
    })
  )
})
