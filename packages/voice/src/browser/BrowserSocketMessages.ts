import { Either, Schema } from "effect"

/**
 * The browser voice session's socket (`mode: webrtc`): audio in binary frames, control in JSON text
 * frames. The browser sends its microphone as 16-bit little-endian PCM, mono, 16 kHz (`sampleRate`), in
 * binary frames of any whole number of samples, and as text `mark` (the echo of a mark the server sent,
 * once the audio before it has played; optional: without echoes the audio counts as played after its
 * length plus a grace), `dtmf` (a key of an on-screen keypad) and `stop` (the person ended the session;
 * closing the socket does too). The server sends the agent's audio in binary frames of the same format,
 * and as text `mark` (after a sentence's audio), `clear` (drop the audio queued and not yet played: the
 * person spoke over the agent), `transcript` (a fragment said, as the run keeps it) and `end` (why the
 * session ended; the socket is closed after it).
 */

/** The socket's audio rate, both ways. */
export const sampleRate = 16000

/** The largest frame read, binary or text (one second of audio is 32000 bytes). */
export const maxFrameBytes = 64 * 1024

export const MarkIn = Schema.Struct({ type: Schema.Literal("mark"), name: Schema.String })
export const DtmfIn = Schema.Struct({
  type: Schema.Literal("dtmf"),
  digit: Schema.String.pipe(Schema.pattern(/^[0-9*#A-D]$/))
})
export const StopIn = Schema.Struct({ type: Schema.Literal("stop") })

/** What the browser sends as text. Unknown fields are ignored. */
export const Inbound = Schema.Union(MarkIn, DtmfIn, StopIn)
export type Inbound = typeof Inbound.Type

/** What the server sends as text. */
export const Outbound = Schema.Union(
  Schema.Struct({ type: Schema.Literal("mark"), name: Schema.String }),
  Schema.Struct({ type: Schema.Literal("clear") }),
  Schema.Struct({
    type: Schema.Literal("transcript"),
    role: Schema.Literal("user", "assistant"),
    text: Schema.String,
    timestamp: Schema.String
  }),
  Schema.Struct({ type: Schema.Literal("end"), reason: Schema.String })
)
export type Outbound = typeof Outbound.Type

const decodeInboundJson = Schema.decodeUnknownEither(Schema.parseJson(Inbound))
const decodeOutboundJson = Schema.decodeUnknownEither(Schema.parseJson(Outbound))

/** A text frame from the browser, or why it is not one (the reason names no value). */
export const decodeInbound = (text: string): Either.Either<Inbound, string> =>
  text.length > maxFrameBytes
    ? Either.left("a text frame over 64 KiB")
    : Either.mapLeft(decodeInboundJson(text), () => "a text frame that is not the session's protocol")

/** A text frame from the server (for clients and tests). */
export const decodeOutbound = (text: string): Either.Either<Outbound, string> =>
  Either.mapLeft(decodeOutboundJson(text), () => "a text frame that is not the session's protocol")

export const encodeOutbound = (message: Outbound): string => JSON.stringify(message)
export const encodeInbound = (message: Inbound): string => JSON.stringify(message)
