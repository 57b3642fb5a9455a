import { Data, Either, ParseResult, Schema } from "effect"

/**
 * Twilio Media Streams' messages: JSON text frames on the WebSocket of a `<Connect><Stream>`. Twilio
 * sends `connected`, `start` (the stream's and the call's ids, the audio format), `media` (base64 μ-law,
 * 8 kHz mono, 20 ms = 160 bytes a frame), `dtmf`, `mark` (the echo of a mark sent, once the audio before
 * it played or was cleared) and `stop`; it takes `media`, `mark` and `clear` (drop the audio queued).
 * Decoding is a Schema's, fields Twilio may add are ignored, and a frame larger than `maxFrameChars` is
 * refused before it is parsed. Both directions decode and encode: the engine reads what Twilio sends,
 * and the fake Twilio of the tests reads what the engine sends.
 */

/** The largest text frame read (a media frame of 20 ms is about 300 characters). */
export const maxFrameChars = 64 * 1024

const Sequence = Schema.optional(Schema.String)
/** Audio bytes, base64 on the wire. */
const Payload = Schema.Uint8ArrayFromBase64

export const Connected = Schema.Struct({
  event: Schema.Literal("connected"),
  protocol: Schema.String,
  version: Schema.String
})

export const Start = Schema.Struct({
  event: Schema.Literal("start"),
  sequenceNumber: Sequence,
  streamSid: Schema.String,
  start: Schema.Struct({
    streamSid: Schema.String,
    callSid: Schema.String,
    accountSid: Schema.optional(Schema.String),
    tracks: Schema.optional(Schema.Array(Schema.String)),
    mediaFormat: Schema.Struct({
      encoding: Schema.String,
      sampleRate: Schema.Number,
      channels: Schema.Number
    }),
    customParameters: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String }))
  })
})

export const Media = Schema.Struct({
  event: Schema.Literal("media"),
  sequenceNumber: Sequence,
  streamSid: Schema.String,
  media: Schema.Struct({
    track: Schema.optional(Schema.String),
    chunk: Schema.optional(Schema.String),
    timestamp: Schema.optional(Schema.String),
    payload: Payload
  })
})

export const Dtmf = Schema.Struct({
  event: Schema.Literal("dtmf"),
  sequenceNumber: Sequence,
  streamSid: Schema.String,
  dtmf: Schema.Struct({
    track: Schema.optional(Schema.String),
    digit: Schema.String.pipe(Schema.pattern(/^[0-9*#A-D]$/))
  })
})

export const Mark = Schema.Struct({
  event: Schema.Literal("mark"),
  sequenceNumber: Sequence,
  streamSid: Schema.String,
  mark: Schema.Struct({ name: Schema.String })
})

export const Stop = Schema.Struct({
  event: Schema.Literal("stop"),
  sequenceNumber: Sequence,
  streamSid: Schema.String,
  stop: Schema.optional(
    Schema.Struct({ accountSid: Schema.optional(Schema.String), callSid: Schema.optional(Schema.String) })
  )
})

/** What Twilio sends. */
export const Inbound = Schema.Union(Connected, Start, Media, Dtmf, Mark, Stop)
export type Inbound = typeof Inbound.Type

export const OutboundMedia = Schema.Struct({
  event: Schema.Literal("media"),
  streamSid: Schema.String,
  media: Schema.Struct({ payload: Payload })
})

export const OutboundMark = Schema.Struct({
  event: Schema.Literal("mark"),
  streamSid: Schema.String,
  mark: Schema.Struct({ name: Schema.String })
})

export const Clear = Schema.Struct({ event: Schema.Literal("clear"), streamSid: Schema.String })

/** What Twilio takes. */
export const Outbound = Schema.Union(OutboundMedia, OutboundMark, Clear)
export type Outbound = typeof Outbound.Type

/** A frame that is not one of the protocol's messages (too large, not JSON, an unknown event, a bad field). */
export class InvalidMediaMessage extends Data.TaggedError("InvalidMediaMessage")<{
  readonly reason: string
}> {
  override get message() {
    return `Invalid media stream message: ${this.reason}`
  }
}

/**
 * A frame reader for `schema`. The decoder is made once, here: made per frame (a `parseJson` schema and
 * its compiled parser each time, 50 frames a second a call), it took about 4% of the server's processor
 * time in `bench:voice`'s profile.
 */
const decoder = <A, I>(schema: Schema.Schema<A, I>) => {
  const decode = Schema.decodeUnknownEither(Schema.parseJson(schema), { onExcessProperty: "ignore" })
  return (frame: string): Either.Either<A, InvalidMediaMessage> => {
    if (frame.length > maxFrameChars) {
      return Either.left(
        new InvalidMediaMessage({ reason: `the frame is longer than ${maxFrameChars} characters` })
      )
    }
    return Either.mapLeft(
      decode(frame),
      (error) =>
        new InvalidMediaMessage({ reason: ParseResult.TreeFormatter.formatErrorSync(error).slice(0, 500) })
    )
  }
}

/** A frame from Twilio, read. */
export const decodeInbound = decoder(Inbound)

/** A frame from the engine, read (what the fake Twilio does). */
export const decodeOutbound = decoder(Outbound)

const encodeInboundJson = Schema.encodeSync(Schema.parseJson(Inbound))
const encodeOutboundJson = Schema.encodeSync(Schema.parseJson(Outbound))

/** A message as Twilio sends it (the fake Twilio's side). */
export const encodeInbound = (message: Inbound): string => encodeInboundJson(message)

/** Audio to play: μ-law 8 kHz bytes (20 ms = 160 bytes per frame is what Twilio sends; any length plays). */
export const media = (streamSid: string, mulaw: Uint8Array): string =>
  encodeOutboundJson({ event: "media", streamSid, media: { payload: mulaw } })

/** A mark after the audio sent so far: Twilio echoes it once that audio has played (or was cleared). */
export const mark = (streamSid: string, name: string): string =>
  encodeOutboundJson({ event: "mark", streamSid, mark: { name } })

/** Drops the audio Twilio has queued and not played yet (barge-in); marks pending are echoed. */
export const clear = (streamSid: string): string => encodeOutboundJson({ event: "clear", streamSid })
