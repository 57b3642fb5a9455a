import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck, Schema } from "effect"
import * as MediaStreamMessages from "../../src/twilio/MediaStreamMessages.js"

const streamSid = "MZ0123456789abcdef0123456789abcdef"
const callSid = "CA0123456789abcdef0123456789abcdef"

const decoded = (frame: string) => {
  const result = MediaStreamMessages.decodeInbound(frame)
  if (Either.isLeft(result)) throw new Error(result.left.message)
  return result.right
}

describe("MediaStreamMessages", () => {
  it("reads Twilio's frames as its documentation shows them, ignoring fields it may add", () => {
    expect(decoded('{"event":"connected","protocol":"Call","version":"1.0.0"}')).toEqual({
      event: "connected",
      protocol: "Call",
      version: "1.0.0"
    })
    const start = decoded(
      JSON.stringify({
        event: "start",
        sequenceNumber: "1",
        start: {
          accountSid: "AC0123",
          streamSid,
          callSid,
          tracks: ["inbound"],
          mediaFormat: { encoding: "audio/x-mulaw", sampleRate: 8000, channels: 1 },
          customParameters: { run: "42" }
        },
        streamSid,
        future: { field: true }
      })
    )
    expect(start).toMatchObject({
      event: "start",
      streamSid,
      start: { callSid, customParameters: { run: "42" } }
    })
    const media = decoded(
      JSON.stringify({
        event: "media",
        sequenceNumber: "3",
        media: {
          track: "inbound",
          chunk: "1",
          timestamp: "5",
          payload: Buffer.from([0xff, 0x7f, 0x00]).toString("base64")
        },
        streamSid
      })
    )
    expect(media.event === "media" && [...media.media.payload]).toEqual([0xff, 0x7f, 0x00])
    expect(
      decoded(
        JSON.stringify({
          event: "dtmf",
          streamSid,
          sequenceNumber: "5",
          dtmf: { track: "inbound_track", digit: "#" }
        })
      )
    ).toMatchObject({
      dtmf: { digit: "#" }
    })
    expect(
      decoded(JSON.stringify({ event: "mark", sequenceNumber: "4", streamSid, mark: { name: "turn-1" } }))
    ).toMatchObject({
      mark: { name: "turn-1" }
    })
    expect(
      decoded(
        JSON.stringify({
          event: "stop",
          sequenceNumber: "5",
          streamSid,
          stop: { accountSid: "AC1", callSid }
        })
      )
    ).toMatchObject({
      event: "stop"
    })
  })

  it("reads a media frame as the schema reads it, whatever its optional fields and payload", () => {
    // the frames read without the schema (`mediaFrame`) against the schema's own reading
    const bySchema = Schema.decodeUnknownEither(Schema.parseJson(MediaStreamMessages.Inbound), {
      onExcessProperty: "ignore"
    })
    const optionalText = FastCheck.option(FastCheck.string({ maxLength: 8 }), { nil: undefined })
    const field = <A>(name: string, value: A | undefined) => (value === undefined ? {} : { [name]: value })
    FastCheck.assert(
      FastCheck.property(
        FastCheck.uint8Array({ maxLength: 400 }),
        optionalText,
        optionalText,
        optionalText,
        optionalText,
        FastCheck.boolean(),
        (bytes, sequenceNumber, track, chunk, timestamp, extra) => {
          const frame = JSON.stringify({
            event: "media",
            ...field("sequenceNumber", sequenceNumber),
            streamSid,
            media: {
              ...field("track", track),
              ...field("chunk", chunk),
              ...field("timestamp", timestamp),
              payload: Buffer.from(bytes).toString("base64"),
              ...(extra ? { future: 1 } : {})
            },
            ...(extra ? { another: { field: true } } : {})
          })
          const read = MediaStreamMessages.decodeInbound(frame)
          expect(Either.isRight(read)).toBe(true)
          expect(read).toEqual(bySchema(frame))
          expect(
            Either.isRight(read) && read.right.event === "media" && [...read.right.media.payload]
          ).toEqual([...bytes])
        }
      )
    )
    // what the schema refuses is refused
    for (const frame of [
      '{"event":"media","streamSid":"MZ1","media":{"payload":"AQ="}}',
      '{"event":"media","streamSid":"MZ1","media":{"payload":"AQ ID"}}',
      '{"event":"media","streamSid":"MZ1","media":{"payload":"A=QI"}}',
      '{"event":"media","streamSid":"MZ1","media":{"payload":42}}',
      '{"event":"media","streamSid":7,"media":{"payload":"AQID"}}',
      '{"event":"media","sequenceNumber":3,"streamSid":"MZ1","media":{"payload":"AQID"}}',
      '{"event":"media","streamSid":"MZ1","media":{"track":1,"payload":"AQID"}}',
      '{"event":"media","streamSid":"MZ1","media":null}'
    ]) {
      expect(Either.isLeft(bySchema(frame))).toBe(true)
      expect(Either.isLeft(MediaStreamMessages.decodeInbound(frame))).toBe(true)
    }
  })

  it("writes the engine's media, mark and clear as Twilio takes them", () => {
    expect(JSON.parse(MediaStreamMessages.media(streamSid, Uint8Array.from([1, 2, 3])))).toEqual({
      event: "media",
      streamSid,
      media: { payload: "AQID" }
    })
    expect(JSON.parse(MediaStreamMessages.mark(streamSid, "turn-1"))).toEqual({
      event: "mark",
      streamSid,
      mark: { name: "turn-1" }
    })
    expect(JSON.parse(MediaStreamMessages.clear(streamSid))).toEqual({ event: "clear", streamSid })
    const back = MediaStreamMessages.decodeOutbound(
      MediaStreamMessages.media(streamSid, Uint8Array.from([1, 2, 3]))
    )
    expect(Either.isRight(back) && back.right.event === "media" && [...back.right.media.payload]).toEqual([
      1, 2, 3
    ])
    // as the schema writes it, for any audio
    const bySchema = Schema.encodeSync(Schema.parseJson(MediaStreamMessages.Outbound))
    FastCheck.assert(
      FastCheck.property(FastCheck.uint8Array({ maxLength: 400 }), FastCheck.nat(), (bytes, offset) => {
        // a view into a larger buffer, as a frame cut from the encoded audio is
        const inside = new Uint8Array((offset % 7) + bytes.length)
        inside.set(bytes, offset % 7)
        const view = inside.subarray(offset % 7)
        expect(MediaStreamMessages.media(streamSid, view)).toBe(
          bySchema({ event: "media", streamSid, media: { payload: bytes } })
        )
      })
    )
  })

  it("refuses frames that are not the protocol's", () => {
    for (const frame of [
      "",
      "not json",
      "[]",
      '{"event":"hello"}',
      '{"event":"media","streamSid":"MZ1"}',
      '{"event":"media","streamSid":"MZ1","media":{"payload":"***"}}',
      '{"event":"dtmf","streamSid":"MZ1","dtmf":{"digit":"12"}}',
      '{"event":"start","streamSid":"MZ1","start":{"streamSid":"MZ1"}}',
      JSON.stringify({
        event: "connected",
        protocol: "x".repeat(MediaStreamMessages.maxFrameChars),
        version: "1"
      })
    ]) {
      expect(Either.isLeft(MediaStreamMessages.decodeInbound(frame))).toBe(true)
    }
    expect(Either.isLeft(MediaStreamMessages.decodeOutbound('{"event":"start","streamSid":"MZ1"}'))).toBe(
      true
    )
  })
})
