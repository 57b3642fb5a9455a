import { describe, expect, it } from "@effect/vitest"
import { Pcm16Bytes } from "@voice-agent-platform/core"
import { Chunk, Deferred, Effect, Either, Stream } from "effect"
import WebSocket, { WebSocketServer } from "ws"
import * as BrowserMediaSession from "../../src/browser/BrowserMediaSession.js"
import * as BrowserSocketMessages from "../../src/browser/BrowserSocketMessages.js"

/** A ws server whose first connection becomes a `BrowserMediaSession`, and the browser's side dialed to it. */
const connected = Effect.gen(function* () {
  const accepted = yield* Deferred.make<WebSocket>()
  const server = yield* Effect.acquireRelease(
    Effect.async<WebSocketServer>((resume) => {
      const wss: WebSocketServer = new WebSocketServer({ host: "127.0.0.1", port: 0 }, () =>
        resume(Effect.succeed(wss))
      )
    }),
    (wss) =>
      Effect.async<void>((resume) => {
        for (const client of wss.clients) client.terminate()
        wss.close(() => resume(Effect.void))
      })
  )
  server.on("connection", (socket) => Deferred.unsafeDone(accepted, Effect.succeed(socket)))
  const port = (server.address() as { port: number }).port
  const browser = yield* Effect.acquireRelease(
    Effect.async<WebSocket>((resume) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/session`)
      ws.on("open", () => resume(Effect.succeed(ws)))
    }),
    (ws) => Effect.sync(() => ws.terminate())
  )
  const received: Array<string | Uint8Array> = []
  browser.on("message", (data, isBinary) =>
    received.push(isBinary ? new Uint8Array(data as Buffer) : (data as Buffer).toString("utf8"))
  )
  const media = yield* BrowserMediaSession.make(yield* Deferred.await(accepted))
  const until = (check: () => boolean) =>
    Effect.gen(function* () {
      for (let i = 0; i < 500 && !check(); i++) yield* Effect.sleep("10 millis")
      expect(check()).toBe(true)
    })
  return { browser, media, received, until }
})

const tone = (length: number) => Int16Array.from({ length }, (_, i) => Math.round(8000 * Math.sin(i / 5)))

describe("BrowserMediaSession", () => {
  it.scopedLive("reads audio (16 kHz PCM16), marks, keys and stop in order", () =>
    Effect.gen(function* () {
      const { browser, media } = yield* connected
      const samples = tone(320)
      browser.send(Pcm16Bytes.encode(samples))
      browser.send(BrowserSocketMessages.encodeInbound({ type: "mark", name: "1.1" }))
      browser.send(BrowserSocketMessages.encodeInbound({ type: "dtmf", digit: "5" }))
      browser.send(BrowserSocketMessages.encodeInbound({ type: "stop" }))
      const events = Chunk.toArray(yield* Stream.runCollect(media.session.events))
      expect(media.session.sample_rate).toBe(16000)
      expect(events).toEqual([
        { _tag: "Audio", sample_rate: 16000, samples },
        { _tag: "Mark", name: "1.1" },
        { _tag: "Dtmf", digit: "5" },
        { _tag: "Stopped" }
      ])
    })
  )

  it.scopedLive("a page closed (1001) is the end; a drop, an odd audio frame or unknown text fail it", () =>
    Effect.gen(function* () {
      const closed = yield* connected
      closed.browser.close(1001)
      expect(Chunk.toArray(yield* Stream.runCollect(closed.media.session.events))).toEqual([
        { _tag: "Stopped" }
      ])

      const odd = yield* connected
      odd.browser.send(new Uint8Array([1, 2, 3]))
      const oddEnd = yield* Effect.either(Stream.runDrain(odd.media.session.events))
      expect(Either.isLeft(oddEnd) && oddEnd.left.reason).toBe(
        "an audio frame that is not whole PCM16 samples"
      )

      const unknown = yield* connected
      unknown.browser.send(JSON.stringify({ type: "media", payload: "AAAA" }))
      const unknownEnd = yield* Effect.either(Stream.runDrain(unknown.media.session.events))
      expect(Either.isLeft(unknownEnd) && unknownEnd.left.reason).toBe(
        "a text frame that is not the session's protocol"
      )

      const dropped = yield* connected
      dropped.browser.terminate()
      const droppedEnd = yield* Effect.either(Stream.runDrain(dropped.media.session.events))
      expect(Either.isLeft(droppedEnd) && droppedEnd.left.reason).toBe("the socket closed (1006)")
    })
  )

  it.scopedLive(
    "sends the agent's audio as binary PCM16, marks, clear and the session's messages as text",
    () =>
      Effect.gen(function* () {
        const { media, received, until } = yield* connected
        const samples = tone(480)
        yield* media.session.sendAudio(samples)
        yield* media.session.sendMark("1.1")
        yield* media.session.clear
        yield* media.send({
          type: "transcript",
          role: "assistant",
          text: "Hello",
          timestamp: "2026-01-01T00:00:00.000Z"
        })
        yield* media.send({ type: "end", reason: "end_call" })
        yield* until(() => received.length === 5)
        expect(received[0]).toEqual(Pcm16Bytes.encode(samples))
        expect(
          received
            .slice(1)
            .map((frame) => Either.getOrThrow(BrowserSocketMessages.decodeOutbound(frame as string)))
        ).toEqual([
          { type: "mark", name: "1.1" },
          { type: "clear" },
          { type: "transcript", role: "assistant", text: "Hello", timestamp: "2026-01-01T00:00:00.000Z" },
          { type: "end", reason: "end_call" }
        ])
      })
  )
})
