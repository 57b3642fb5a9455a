import type { SpeechChunk } from "@voice-agent-platform/core/voice/TextToSpeech.js"
import {
  SpeechDeadline,
  SpeechUnavailable,
  type TextToSpeechError
} from "@voice-agent-platform/core/voice/TextToSpeechErrors.js"
import * as ScopedStream from "@voice-agent-platform/core/streams/ScopedStream.js"
import * as Pcm16Bytes from "@voice-agent-platform/core/voice/Pcm16Bytes.js"
import { Chunk, Clock, Effect, Option, Stream } from "effect"
import { abandoned, networkFailureCode } from "@voice-agent-platform/core/providers/ProviderExchanges.js"
import { request } from "undici"
import { headerReader } from "@voice-agent-platform/core/providers/ProviderHeaders.js"
import * as SpeechAnswers from "./SpeechAnswers.js"

/**
 * One streamed synthesis over HTTP with undici's `request` (Node's `fetch`, undici with the WHATWG
 * `Request`, `Headers` and web streams on top, cost about twice the processor time a request: see
 * docs/performance.md): a POST whose body is raw little-endian PCM16, passed on read by read as whole
 * samples (an odd byte waits for the next read). The exchange is aborted when the stream's scope closes
 * before the audio's end: on a failure, and when the consumer interrupts it (a barge-in). Two deadlines,
 * each one timer aborting the exchange wherever it is (never a race around each read, never
 * `AbortSignal.timeout`, which Node 20 can collect before it fires): no audio byte within
 * `firstByteTimeoutMs`, the audio not ended within `timeoutMs`. Reply bytes are counted against a cap.
 * Redirects are not followed: following would carry the key elsewhere.
 */

/** Where the request goes and how it is bounded. */
export interface Exchange {
  readonly url: string
  /** The JSON content type and the provider's auth header. */
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  /** The rate of the PCM the provider answers. */
  readonly sampleRate: number
  readonly firstByteTimeoutMs: number
  readonly timeoutMs: number
  readonly maxResponseBytes: number
  /** What an error answer's reasons name. */
  readonly context: Omit<SpeechAnswers.Context, "now">
}

/** The body's reads, one promise each. */
type BodyReader = AsyncIterator<Uint8Array>

/** The most of an error answer read to find the provider's error. */
const errorBodyBytes = 64 * 1024

const withCode = (error: unknown) => {
  const code = networkFailureCode(error)
  return code === null ? "" : ` (${code})`
}

/** The audio of one synthesis, chunk by chunk as it arrives. */
export const stream = (exchange: Exchange): Stream.Stream<SpeechChunk, TextToSpeechError> =>
  ScopedStream.unwrapScoped(
    Effect.gen(function* () {
      let expired: SpeechDeadline | null = null
      // the whole audio read: nothing is left to abort (an abort makes an error, its stack captured)
      let ended = false
      let firstByte: ReturnType<typeof setTimeout> | undefined
      const controller = yield* Effect.acquireRelease(
        Effect.sync(() => {
          const controller = new AbortController()
          const expire = (phase: "first_byte" | "overall", ms: number) => () => {
            expired ??= new SpeechDeadline({ phase, timeout_ms: ms })
            controller.abort()
          }
          firstByte = setTimeout(
            expire("first_byte", exchange.firstByteTimeoutMs),
            exchange.firstByteTimeoutMs
          )
          const overall = setTimeout(expire("overall", exchange.timeoutMs), exchange.timeoutMs)
          return { controller, overall }
        }),
        ({ controller, overall }) =>
          Effect.sync(() => {
            clearTimeout(firstByte)
            clearTimeout(overall)
            if (!ended) controller.abort(abandoned)
          })
      ).pipe(Effect.map(({ controller }) => controller))
      const failedWith =
        (otherwise: (error: unknown) => TextToSpeechError) =>
        (error: unknown): TextToSpeechError =>
          expired ?? otherwise(error)
      // no redirect is followed: `request` follows none
      const response = yield* Effect.tryPromise({
        try: () =>
          request(exchange.url, {
            method: "POST",
            headers: exchange.headers,
            body: exchange.body,
            signal: controller.signal
          }),
        catch: failedWith(
          (error) =>
            new SpeechUnavailable({ reason: `the speech server could not be reached${withCode(error)}` })
        )
      })
      // a body not read to its end is destroyed with the scope (the abort above ends it too)
      yield* Effect.addFinalizer(() => Effect.sync(() => void (ended || response.body.destroy(abandoned))))
      const reader: BodyReader = response.body[Symbol.asyncIterator]()
      const headers = headerReader(response.headers)
      const broken = failedWith(
        (error) =>
          new SpeechUnavailable({
            reason: `the connection to the speech server broke during the audio${withCode(error)}`
          })
      )
      if (response.statusCode < 200 || response.statusCode >= 300) {
        const body = yield* errorText(reader, broken)
        return yield* Effect.fail(
          SpeechAnswers.fromAnswer(
            { status: response.statusCode, headers, body },
            { ...exchange.context, now: yield* Clock.currentTimeMillis }
          )
        )
      }
      const contentType = headers.get("content-type") ?? ""
      if (/\b(application\/json|text\/)/i.test(contentType)) {
        return yield* Effect.fail(
          new SpeechUnavailable({
            reason: "the provider answered text, not audio: check that it serves raw PCM"
          })
        )
      }
      return chunksOf(reader, exchange, broken, {
        onFirstByte: () => clearTimeout(firstByte),
        onEnd: () => void (ended = true)
      })
    })
  )

/** The body's reads as whole-sample chunks; `onFirstByte` runs at the first byte, `onEnd` at the end. */
const chunksOf = (
  reader: BodyReader,
  exchange: Exchange,
  broken: (error: unknown) => TextToSpeechError,
  on: { readonly onFirstByte: () => void; readonly onEnd: () => void }
): Stream.Stream<SpeechChunk, TextToSpeechError> => {
  let carry: Pcm16Bytes.Carry = null
  let received = 0
  const pull: Effect.Effect<Chunk.Chunk<SpeechChunk>, Option.Option<TextToSpeechError>> = Effect.flatMap(
    Effect.mapError(Effect.tryPromise({ try: () => reader.next(), catch: broken }), Option.some),
    ({ done, value }) => {
      // a half sample at the very end is inaudible: it is dropped
      if (done) {
        on.onEnd()
        return Effect.fail(Option.none())
      }
      if (received === 0 && value.byteLength > 0) on.onFirstByte()
      received += value.byteLength
      if (received > exchange.maxResponseBytes) {
        return Effect.fail(
          Option.some(
            new SpeechUnavailable({ reason: `the audio was larger than ${exchange.maxResponseBytes} bytes` })
          )
        )
      }
      const decoded = Pcm16Bytes.decode(carry, value)
      carry = decoded.carry
      return Effect.succeed(
        decoded.samples.length === 0
          ? Chunk.empty()
          : Chunk.of({ sample_rate: exchange.sampleRate, samples: decoded.samples })
      )
    }
  )
  return Stream.repeatEffectChunkOption(pull)
}

/** At most 64 KiB of an error answer, as text; what cannot be read is left out. */
const errorText = (
  reader: BodyReader,
  broken: (error: unknown) => TextToSpeechError
): Effect.Effect<string> =>
  Effect.suspend(() => {
    const decoder = new TextDecoder()
    let text = ""
    let received = 0
    const rest: Effect.Effect<string, TextToSpeechError> = Effect.flatMap(
      Effect.tryPromise({ try: () => reader.next(), catch: broken }),
      ({ done, value }) => {
        if (done) return Effect.succeed(text + decoder.decode())
        received += value.byteLength
        text += decoder.decode(
          value.subarray(0, Math.max(0, value.byteLength - Math.max(0, received - errorBodyBytes))),
          {
            stream: true
          }
        )
        return received >= errorBodyBytes ? Effect.succeed(text) : rest
      }
    )
    return Effect.orElseSucceed(rest, () => text)
  })
