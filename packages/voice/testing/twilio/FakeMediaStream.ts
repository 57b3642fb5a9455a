import { randomBytes } from "node:crypto"
import { Effect, Either, type Scope } from "effect"
import WebSocket from "ws"
import * as MediaStreamMessages from "../../src/twilio/MediaStreamMessages.js"
import * as MuLaw from "../../src/twilio/MuLaw.js"

/**
 * Twilio's side of a Media Stream, as the fake Twilio plays it: a WebSocket client (`ws`) that dials the
 * `<Stream>` URL of an answer, sends `connected`, `start` and the caller's audio as 20 ms `media` frames
 * (from μ-law or 8 kHz PCM), `dtmf` and `stop`; it records every frame the engine sends, echoes each
 * `mark` (at once, or after `markDelayMs` as if the audio before it were playing; at once on `clear`),
 * and keeps the audio the engine sent.
 *
 * ```ts
 * const stream = yield* FakeMediaStream.connect(streamUrl, { callSid })
 * yield* stream.start
 * yield* stream.sendAudio(mulawFixture)
 * ```
 */

export interface Options {
  readonly callSid: string
  readonly accountSid?: string
  /** Default: a fresh `MZ` + 32 hex. */
  readonly streamSid?: string
  /** How long a mark waits before it is echoed, as if its audio were playing. Default 0. */
  readonly markDelayMs?: number
  /**
   * Holds every mark until the test plays the audio before it (`play`) or the engine sends `clear`, so a
   * test says how far the agent was heard. Default false.
   */
  readonly holdMarks?: boolean
  /** How long to wait for the socket to open. Default 5000. */
  readonly openTimeoutMs?: number
  /** `customParameters` of the `start` message. */
  readonly customParameters?: Readonly<Record<string, string>>
  /** Told of each message the engine sends as it arrives, with `performance.now()` then (benches time turns). */
  readonly onMessage?: (message: MediaStreamMessages.Outbound, atMs: number) => void
  /** Told once when the socket closes, whoever closed it, with the close code. */
  readonly onClose?: (code: number) => void
}

export interface Stream {
  readonly streamSid: string
  /** Sends `connected` then `start`. */
  readonly start: Effect.Effect<void>
  /** Sends μ-law audio as 20 ms `media` frames, numbered as Twilio numbers them. */
  readonly sendAudio: (mulaw: Uint8Array) => Effect.Effect<void>
  /** Sends 8 kHz little-endian PCM16 audio (encoded to μ-law first). */
  readonly sendPcm: (pcm: Uint8Array) => Effect.Effect<void>
  readonly sendDtmf: (digit: string) => Effect.Effect<void>
  /** Sends `stop` and closes the socket. */
  readonly stop: Effect.Effect<void>
  /** Every message the engine sent, decoded, oldest first. */
  readonly received: () => ReadonlyArray<MediaStreamMessages.Outbound>
  /** Frames the engine sent that are not the protocol's, as text. */
  readonly invalid: () => ReadonlyArray<string>
  /** The μ-law audio of every `media` frame the engine sent, joined. */
  readonly receivedAudio: () => Uint8Array
  /** The names of the marks echoed so far, in order. */
  readonly echoedMarks: () => ReadonlyArray<string>
  /** The marks received and not echoed yet, in order (`holdMarks`, `markDelayMs`). */
  readonly heldMarks: () => ReadonlyArray<string>
  /** Echoes the held marks up to and including `name`, as if the audio before it had played. */
  readonly play: (name: string) => Effect.Effect<void>
  /** Waits until `check` holds of what was received (polling), failing after `timeoutMs` (default 5000). */
  readonly waitFor: (
    check: (received: ReadonlyArray<MediaStreamMessages.Outbound>) => boolean,
    timeoutMs?: number
  ) => Effect.Effect<void, Error>
  /** Whether the engine closed the socket, and with which code (null while open). */
  readonly closedWith: () => number | null
}

const hex = (bytes: number) => randomBytes(bytes).toString("hex")

/** Dials `url` for the scope (the socket is closed when the scope closes). */
export const connect = (url: string, options: Options): Effect.Effect<Stream, Error, Scope.Scope> =>
  Effect.gen(function* () {
    const streamSid = options.streamSid ?? `MZ${hex(16)}`
    const accountSid = options.accountSid ?? `AC${hex(16)}`
    const markDelayMs = options.markDelayMs ?? 0
    const received: Array<MediaStreamMessages.Outbound> = []
    const invalid: Array<string> = []
    const audio: Array<Uint8Array> = []
    const echoed: Array<string> = []
    const pendingMarks = new Map<string, ReturnType<typeof setTimeout> | undefined>()
    let closedWith: number | null = null
    let sequence = 0
    let chunk = 0

    const socket = yield* Effect.acquireRelease(
      Effect.async<WebSocket, Error>((resume) => {
        const ws = new WebSocket(url)
        const timer = setTimeout(() => {
          ws.terminate()
          resume(Effect.fail(new Error("the media socket did not open in time")))
        }, options.openTimeoutMs ?? 5000)
        ws.once("open", () => {
          clearTimeout(timer)
          resume(Effect.succeed(ws))
        })
        ws.once("unexpected-response", (_, response) => {
          clearTimeout(timer)
          ws.terminate()
          resume(Effect.fail(new Error(`the media socket was refused (${response.statusCode})`)))
        })
        ws.once("error", (error) => {
          clearTimeout(timer)
          resume(Effect.fail(new Error(`the media socket failed: ${error.message}`)))
        })
        return Effect.sync(() => {
          clearTimeout(timer)
          ws.terminate()
        })
      }),
      (ws) =>
        Effect.sync(() => {
          for (const timer of pendingMarks.values()) clearTimeout(timer)
          pendingMarks.clear()
          ws.terminate()
        })
    )

    const send = (message: MediaStreamMessages.Inbound) =>
      Effect.async<void>((resume) => {
        if (socket.readyState !== WebSocket.OPEN) return resume(Effect.void)
        socket.send(MediaStreamMessages.encodeInbound(message), () => resume(Effect.void))
      })
    const nextSequence = () => String(++sequence)
    const echo = (name: string) => {
      pendingMarks.delete(name)
      echoed.push(name)
      if (socket.readyState !== WebSocket.OPEN) return
      socket.send(
        MediaStreamMessages.encodeInbound({
          event: "mark",
          sequenceNumber: nextSequence(),
          streamSid,
          mark: { name }
        })
      )
    }

    socket.on("close", (code) => {
      closedWith = code
      options.onClose?.(code)
    })
    socket.on("message", (data, isBinary) => {
      const text = isBinary ? "" : data.toString()
      const decoded = MediaStreamMessages.decodeOutbound(text)
      if (Either.isLeft(decoded)) return void invalid.push(text.slice(0, 1000))
      const message = decoded.right
      received.push(message)
      options.onMessage?.(message, performance.now())
      if (message.event === "media") audio.push(message.media.payload)
      else if (message.event === "mark") {
        if (options.holdMarks === true) pendingMarks.set(message.mark.name, undefined)
        else if (markDelayMs === 0) echo(message.mark.name)
        else
          pendingMarks.set(
            message.mark.name,
            setTimeout(() => echo(message.mark.name), markDelayMs)
          )
      } else {
        for (const [name, timer] of [...pendingMarks]) {
          clearTimeout(timer)
          echo(name)
        }
      }
    })

    const sendAudio = (mulaw: Uint8Array) =>
      Effect.forEach(
        MuLaw.frames(mulaw),
        (frame) =>
          send({
            event: "media",
            sequenceNumber: nextSequence(),
            streamSid,
            media: {
              track: "inbound",
              chunk: String(++chunk),
              timestamp: String((chunk - 1) * 20),
              payload: frame
            }
          }),
        { discard: true }
      )

    return {
      streamSid,
      start: Effect.zipRight(
        send({ event: "connected", protocol: "Call", version: "1.0.0" }),
        Effect.suspend(() =>
          send({
            event: "start",
            sequenceNumber: nextSequence(),
            streamSid,
            start: {
              streamSid,
              callSid: options.callSid,
              accountSid,
              tracks: ["inbound"],
              mediaFormat: { encoding: "audio/x-mulaw", sampleRate: MuLaw.sampleRate, channels: 1 },
              customParameters: options.customParameters ?? {}
            }
          })
        )
      ),
      sendAudio,
      sendPcm: (pcm) => sendAudio(MuLaw.fromPcm(pcm)),
      sendDtmf: (digit) =>
        Effect.suspend(() =>
          send({
            event: "dtmf",
            sequenceNumber: nextSequence(),
            streamSid,
            dtmf: { track: "inbound_track", digit }
          })
        ),
      stop: Effect.zipRight(
        Effect.suspend(() =>
          send({
            event: "stop",
            sequenceNumber: nextSequence(),
            streamSid,
            stop: { accountSid, callSid: options.callSid }
          })
        ),
        Effect.sync(() => socket.close(1000))
      ),
      received: () => [...received],
      invalid: () => [...invalid],
      receivedAudio: () => {
        const joined = new Uint8Array(audio.reduce((sum, bytes) => sum + bytes.byteLength, 0))
        let offset = 0
        for (const bytes of audio) {
          joined.set(bytes, offset)
          offset += bytes.byteLength
        }
        return joined
      },
      echoedMarks: () => [...echoed],
      heldMarks: () => [...pendingMarks.keys()],
      play: (name) =>
        Effect.sync(() => {
          if (!pendingMarks.has(name)) throw new Error(`no mark ${name} is held`)
          for (const [held, timer] of [...pendingMarks]) {
            clearTimeout(timer)
            echo(held)
            if (held === name) return
          }
        }),
      waitFor: (check, timeoutMs = 5000) =>
        Effect.gen(function* () {
          const until = Date.now() + timeoutMs
          while (!check(received)) {
            if (Date.now() > until) return yield* Effect.fail(new Error("what was awaited never came"))
            yield* Effect.sleep("10 millis")
          }
        }),
      closedWith: () => closedWith
    }
  })
