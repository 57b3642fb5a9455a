import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { WebSocketServer, type WebSocket } from "ws"
import * as MediaStreamMessages from "../../src/twilio/MediaStreamMessages.js"
import * as MuLaw from "../../src/twilio/MuLaw.js"
import { AudioFixtures, FakeMediaStream } from "../../testing/index.js"

const callSid = "CA0123456789abcdef0123456789abcdef"

/** A tiny engine side for the scope: a ws server that records what Twilio's side sends and answers per `onMessage`. */
const engine = (onMessage: (socket: WebSocket, message: MediaStreamMessages.Inbound) => void) =>
  Effect.gen(function* () {
    const inbound: Array<MediaStreamMessages.Inbound> = []
    const paths: Array<string> = []
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
    server.on("connection", (socket, request) => {
      paths.push(request.url ?? "")
      socket.on("message", (data) => {
        const decoded = MediaStreamMessages.decodeInbound(data.toString())
        if (Either.isLeft(decoded)) return socket.close(1008)
        inbound.push(decoded.right)
        onMessage(socket, decoded.right)
      })
    })
    const port = (server.address() as { port: number }).port
    return { url: `ws://127.0.0.1:${port}/telephony/twilio/stream/42/1764259200.token`, inbound, paths }
  })

const until = (check: () => boolean) =>
  Effect.gen(function* () {
    const deadline = Date.now() + 5000
    while (!check()) {
      if (Date.now() > deadline) return yield* Effect.fail(new Error("never came"))
      yield* Effect.sleep("10 millis")
    }
  })

describe("FakeMediaStream against a tiny engine", () => {
  it.scopedLive(
    "plays the caller's audio and hears the engine's, marks echoed, round trip within μ-law",
    () =>
      Effect.gen(function* () {
        const greeting = AudioFixtures.mulawTone(660, 100)
        const server = yield* engine((socket, message) => {
          if (message.event === "start") {
            for (const frame of MuLaw.frames(greeting))
              socket.send(MediaStreamMessages.media(message.streamSid, frame))
            socket.send(MediaStreamMessages.mark(message.streamSid, "greeting"))
          }
          if (message.event === "dtmf") socket.send(MediaStreamMessages.clear(message.streamSid))
          if (message.event === "stop") socket.close(1000)
        })
        const stream = yield* FakeMediaStream.connect(server.url, { callSid })
        yield* stream.start
        yield* stream.waitFor((received) => received.some((message) => message.event === "mark"))
        expect(server.paths).toEqual(["/telephony/twilio/stream/42/1764259200.token"])
        expect(server.inbound.slice(0, 2)).toMatchObject([
          { event: "connected", protocol: "Call" },
          {
            event: "start",
            streamSid: stream.streamSid,
            start: { callSid, mediaFormat: { encoding: "audio/x-mulaw", sampleRate: 8000, channels: 1 } }
          }
        ])
        // the engine's audio arrives whole, and its mark is echoed back to it
        expect([...stream.receivedAudio()]).toEqual([...greeting])
        expect(stream.echoedMarks()).toEqual(["greeting"])
        yield* until(() => server.inbound.some((message) => message.event === "mark"))
        expect(server.inbound.find((message) => message.event === "mark")).toMatchObject({
          mark: { name: "greeting" }
        })

        // the caller's PCM goes as 20 ms μ-law frames and decodes back within μ-law's error
        const tone = AudioFixtures.tone(440, 100)
        yield* stream.sendPcm(MuLaw.pcmOfSamples(tone))
        yield* until(() => server.inbound.filter((message) => message.event === "media").length === 5)
        const frames = server.inbound.flatMap((message) => (message.event === "media" ? [message.media] : []))
        expect(frames.map((frame) => frame.payload.byteLength)).toEqual([160, 160, 160, 160, 160])
        expect(frames.map((frame) => frame.timestamp)).toEqual(["0", "20", "40", "60", "80"])
        const heard = MuLaw.decode(Uint8Array.from(frames.flatMap((frame) => [...frame.payload])))
        tone.forEach((sample, index) =>
          expect(Math.abs(sample - heard[index]!)).toBeLessThanOrEqual(4 + Math.abs(sample) / 16)
        )

        // DTMF reaches the engine; its clear reaches the fake
        yield* stream.sendDtmf("5")
        yield* stream.waitFor((received) => received.some((message) => message.event === "clear"))
        expect(server.inbound.find((message) => message.event === "dtmf")).toMatchObject({
          dtmf: { digit: "5" }
        })

        yield* stream.stop
        yield* until(() => stream.closedWith() !== null)
        expect(server.inbound.at(-1)).toMatchObject({ event: "stop", stop: { callSid } })
        expect(stream.closedWith()).toBe(1000)
        expect(stream.invalid()).toEqual([])
        // sequence numbers count up from 1 in the order the messages were sent (marks echoed included)
        const sequences = server.inbound.flatMap((message) =>
          "sequenceNumber" in message ? [Number(message.sequenceNumber)] : []
        )
        expect(sequences).toEqual(sequences.map((_, index) => index + 1))
      })
  )

  it.scopedLive(
    "a mark waits for its audio to play, and a clear echoes the marks still waiting at once",
    () =>
      Effect.gen(function* () {
        const server = yield* engine((socket, message) => {
          if (message.event === "start") {
            socket.send(MediaStreamMessages.media(message.streamSid, AudioFixtures.mulawTone(300, 20)))
            socket.send(MediaStreamMessages.mark(message.streamSid, "reply-1"))
          }
          if (message.event === "dtmf") socket.send(MediaStreamMessages.clear(message.streamSid))
        })
        const stream = yield* FakeMediaStream.connect(server.url, { callSid, markDelayMs: 60_000 })
        yield* stream.start
        yield* stream.waitFor((received) => received.some((message) => message.event === "mark"))
        yield* Effect.sleep("50 millis")
        expect(stream.echoedMarks()).toEqual([])
        yield* stream.sendDtmf("1")
        yield* until(() => server.inbound.some((message) => message.event === "mark"))
        expect(stream.echoedMarks()).toEqual(["reply-1"])
      })
  )

  it.scopedLive("records what is not the protocol's, and fails to connect where nothing listens", () =>
    Effect.gen(function* () {
      const server = yield* engine((socket, message) => {
        if (message.event === "start") socket.send('{"event":"media","streamSid":"x"}')
      })
      const stream = yield* FakeMediaStream.connect(server.url, { callSid })
      yield* stream.start
      yield* until(() => stream.invalid().length === 1)
      expect(stream.received()).toEqual([])
      const refused = yield* Effect.flip(FakeMediaStream.connect("ws://127.0.0.1:1/none", { callSid }))
      expect(refused.message).toMatch(/^the media socket failed/)
    })
  )
})
