import { describe, expect, it } from "@effect/vitest"
import { Chunk, Deferred, Effect, Stream } from "effect"
import { WebSocketServer, type WebSocket } from "ws"
import * as MuLaw from "../../src/twilio/MuLaw.js"
import * as TwilioMediaSession from "../../src/twilio/TwilioMediaSession.js"
import { AudioFixtures, FakeMediaStream } from "../../testing/index.js"

const callSid = "CA0123456789abcdef0123456789abcdef"

/** A ws server whose first connection becomes a `TwilioMediaSession`, and Twilio's side dialed to it. */
const connected = (options: { readonly markDelayMs?: number } = {}) =>
  Effect.gen(function* () {
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
    const twilio = yield* FakeMediaStream.connect(`ws://127.0.0.1:${port}/stream`, { callSid, ...options })
    const socket = yield* Deferred.await(accepted)
    yield* twilio.start
    const media = yield* TwilioMediaSession.make(socket)
    return { twilio, media, socket }
  })

describe("TwilioMediaSession", () => {
  it.scopedLive("reads the start, the caller's audio as PCM16, keys, and the stop", () =>
    Effect.gen(function* () {
      const { twilio, media } = yield* connected()
      expect(media.callSid).toBe(callSid)
      expect(media.streamSid).toBe(twilio.streamSid)
      const tone = AudioFixtures.mulawTone(440, 60)
      yield* twilio.sendAudio(tone)
      yield* twilio.sendDtmf("7")
      yield* twilio.stop
      const events = Chunk.toArray(yield* Stream.runCollect(media.session.events))
      const audio = events.filter((e) => e._tag === "Audio")
      expect(audio.length).toBe(3)
      expect(
        audio.every((e) => e._tag === "Audio" && e.sample_rate === 8000 && e.samples.length === 160)
      ).toBe(true)
      const heard = new Int16Array(480)
      audio.forEach((e, i) => e._tag === "Audio" && heard.set(e.samples, i * 160))
      expect(Array.from(heard)).toEqual(Array.from(MuLaw.decode(tone)))
      expect(events.slice(3)).toEqual([{ _tag: "Dtmf", digit: "7" }, { _tag: "Stopped" }])
    })
  )

  it.scopedLive("sends the agent's audio in 20 ms μ-law frames, a mark after it, and clear", () =>
    Effect.gen(function* () {
      const { twilio, media } = yield* connected()
      const pcm = AudioFixtures.tone(300, 50) // 400 samples: two whole frames and 80 samples
      yield* media.session.sendAudio(pcm)
      yield* media.session.sendMark("1.1")
      yield* media.session.clear
      yield* twilio.waitFor((received) => received.some((m) => m.event === "clear"))
      const events = twilio.received().map((m) => m.event)
      expect(events).toEqual(["media", "media", "media", "mark", "clear"])
      const frames = twilio.received().flatMap((m) => (m.event === "media" ? [m.media.payload] : []))
      expect(frames.map((f) => f.length)).toEqual([160, 160, 160])
      expect(Array.from(twilio.receivedAudio().subarray(0, 400))).toEqual(Array.from(MuLaw.encode(pcm)))
      expect(Array.from(frames[2]!.subarray(80))).toEqual(new Array(80).fill(0xff))
      // the mark comes back once "played"
      const mark = yield* Stream.runHead(Stream.filter(media.session.events, (e) => e._tag === "Mark"))
      expect(mark._tag === "Some" && mark.value).toEqual({ _tag: "Mark", name: "1.1" })
    })
  )

  it.scopedLive("fails when the socket drops, and refuses to send after", () =>
    Effect.gen(function* () {
      const dropped = yield* connected()
      dropped.socket.terminate()
      const failure = yield* Effect.flip(Stream.runDrain(dropped.media.session.events))
      expect(failure.reason).toContain("the socket closed (1006)")
      expect((yield* Effect.flip(dropped.media.session.sendAudio(new Int16Array(160)))).reason).toBe(
        "the socket is closed"
      )
    })
  )
})
