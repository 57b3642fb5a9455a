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

/** Base64 as the schema's `Uint8ArrayFromBase64` takes it: the alphabet, padded to whole quadruples. */
const base64 = /^[A-Za-z0-9+/]*={0,2}$/

/**
 * A `media` frame in Twilio's shape, read without the schema: the caller's audio, 50 frames a second every
 * live call, where the schema's union, struct and base64 decoding cost twice a frame's `JSON.parse`. The
 * same checks and the same result as the schema's; null for anything else (another event, a field of
 * another type, a payload that is not base64), which the schema then reads, or refuses with its reason.
 */
const mediaFrame = (parsed: unknown): Extract<Inbound, { readonly event: "media" }> | null => {
  if (typeof parsed !== "object" || parsed === null) return null
  const { event, sequenceNumber, streamSid, media } = parsed as Record<string, unknown>
  if (event !== "media" || typeof streamSid !== "string" || typeof media !== "object" || media === null) {
    return null
  }
  const { track, chunk, timestamp, payload } = media as Record<string, unknown>
  if (
    (sequenceNumber !== undefined && typeof sequenceNumber !== "string") ||
    (track !== undefined && typeof track !== "string") ||
    (chunk !== undefined && typeof chunk !== "string") ||
    (timestamp !== undefined && typeof timestamp !== "string") ||
    typeof payload !== "string" ||
    payload.length % 4 !== 0 ||
    !base64.test(payload)
  ) {
    return null
  }
  const bytes = Buffer.from(payload, "base64")
  // the optional fields only when present, as the schema leaves them out
  const audio: { track?: string; chunk?: string; timestamp?: string; payload: Uint8Array } = {
    payload: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  }
  if (track !== undefined) audio.track = track
  if (chunk !== undefined) audio.chunk = chunk
  if (timestamp !== undefined) audio.timestamp = timestamp
  const frame: { event: "media"; sequenceNumber?: string; streamSid: string; media: typeof audio } = {
    event: "media",
    streamSid,
    media: audio
  }
  if (sequenceNumber !== undefined) frame.sequenceNumber = sequenceNumber
  return frame
}

/**
 * A frame reader for `schema`: the frame parsed once, then `direct` (a frame read without the schema, or
 * null) or the schema. The decoders are made once, here: made per frame (a `parseJson` schema and its
 * compiled parser each time, 50 frames a second a call), they took about 4% of the server's processor
 * time in `bench:voice`'s profile.
 */
const decoder = <A, I>(schema: Schema.Schema<A, I>, direct: (parsed: unknown) => A | null = () => null) => {
  const decodeText = Schema.decodeUnknownEither(Schema.parseJson(schema), { onExcessProperty: "ignore" })
  const decodeParsed = Schema.decodeUnknownEither(schema, { onExcessProperty: "ignore" })
  const invalid = (error: ParseResult.ParseError) =>
    new InvalidMediaMessage({ reason: ParseResult.TreeFormatter.formatErrorSync(error).slice(0, 500) })
  return (frame: string): Either.Either<A, InvalidMediaMessage> => {
    if (frame.length > maxFrameChars) {
      return Either.left(
        new InvalidMediaMessage({ reason: `the frame is longer than ${maxFrameChars} characters` })
      )
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(frame)
    } catch {
      // not JSON: the schema's reason says so
      return Either.mapLeft(decodeText(frame), invalid)
    }
    const read = direct(parsed)
    return read !== null ? Either.right(read) : Either.mapLeft(decodeParsed(parsed), invalid)
  }
}

/** A frame from Twilio, read (a `media` frame without the schema: `mediaFrame`). */
export const decodeInbound = decoder(Inbound, mediaFrame)

/** A frame from the engine, read (what the fake Twilio does). */
export const decodeOutbound = decoder(Outbound)

const encodeInboundJson = Schema.encodeSync(Schema.parseJson(Inbound))
const encodeOutboundJson = Schema.encodeSync(Schema.parseJson(Outbound))

/** A message as Twilio sends it (the fake Twilio's side). */
export const encodeInbound = (message: Inbound): string => encodeInboundJson(message)

/**
 * Audio to play: μ-law 8 kHz bytes (20 ms = 160 bytes per frame is what Twilio sends; any length plays).
 * Written without the schema (the agent's audio, 50 frames a second while it speaks): the schema's
 * encoding of the same message, with Node's base64.
 */
export const media = (streamSid: string, mulaw: Uint8Array): string =>
  JSON.stringify({
    event: "media",
    streamSid,
    media: { payload: Buffer.from(mulaw.buffer, mulaw.byteOffset, mulaw.byteLength).toString("base64") }
  })

/** A mark after the audio sent so far: Twilio echoes it once that audio has played (or was cleared). */
export const mark = (streamSid: string, name: string): string =>
  encodeOutboundJson({ event: "mark", streamSid, mark: { name } })

/** Drops the audio Twilio has queued and not played yet (barge-in); marks pending are echoed. */
export const clear = (streamSid: string): string => encodeOutboundJson({ event: "clear", streamSid })
