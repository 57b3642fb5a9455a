import * as Pcm16Bytes from "@voice-agent-platform/core/voice/Pcm16Bytes.js"
import { type InboundEvent, type MediaSession } from "@voice-agent-platform/core/voice/MediaSession.js"
import { MediaSessionFailed } from "@voice-agent-platform/core/voice/LiveCallErrors.js"
import { Effect, Either, type Scope } from "effect"
import WebSocket from "ws"
import * as BrowserSocketMessages from "./BrowserSocketMessages.js"
import * as SocketGuards from "../socket/SocketGuards.js"
import * as EventQueue from "@voice-agent-platform/core/voice/EventQueue.js"

/**
 * The `MediaSession` over a browser voice session's socket the server accepted (`ws`, see
 * `BrowserSocketMessages`): binary frames are the person's audio (PCM16, 16 kHz), text `mark` an echoed
 * mark, `dtmf` a key, `stop` (or the socket closing cleanly, 1000 or 1001 for a page left) the end. The
 * agent's audio goes out as binary frames as it comes, marks and `clear` as text; `send` adds the session's
 * other text messages (`transcript`, `end`). A frame that is not the protocol's (an odd number of audio
 * bytes, unknown text), a socket that drops, or a send that fails ends the session with
 * `MediaSessionFailed`, as does a limit of `SocketGuards` (pings every 10 s, no frame nor pong for 30 s,
 * 1000 events unread, sends waiting with none flushed for 10 s, 2 MiB unflushed). The socket is closed
 * with the scope.
 */

export interface BrowserMediaSession {
  readonly session: MediaSession
  /** Sends one of the session's text messages. */
  readonly send: (message: BrowserSocketMessages.Outbound) => Effect.Effect<void, MediaSessionFailed>
}

const failed = (reason: string) => new MediaSessionFailed({ reason })

export const make = (
  socket: WebSocket,
  options: { readonly limits?: Partial<SocketGuards.Limits> } = {}
): Effect.Effect<BrowserMediaSession, never, Scope.Scope> =>
  Effect.gen(function* () {
    const inbound = EventQueue.make<InboundEvent, MediaSessionFailed>()
    /** The session's end: the person gone (`Stopped` first). */
    const stop = () => {
      if (inbound.isDone()) return
      inbound.offer({ _tag: "Stopped" })
      inbound.end()
    }
    const fail = (reason: string) => inbound.fail(failed(reason))
    const guarded = yield* SocketGuards.guard(socket, inbound, inbound.fail, {
      ...SocketGuards.browserLimits,
      ...options.limits
    })
    const offer = (event: InboundEvent) => void guarded.offer(event)

    socket.on("message", (data, isBinary) => {
      if (inbound.isDone()) return
      guarded.seen()
      const bytes = Array.isArray(data)
        ? Buffer.concat(data)
        : data instanceof ArrayBuffer
          ? Buffer.from(data)
          : data
      if (isBinary) {
        const decoded = Pcm16Bytes.decode(null, bytes)
        if (decoded.carry !== null) return fail("an audio frame that is not whole PCM16 samples")
        if (decoded.samples.length > 0)
          offer({ _tag: "Audio", sample_rate: BrowserSocketMessages.sampleRate, samples: decoded.samples })
        return
      }
      const message = BrowserSocketMessages.decodeInbound(bytes.toString("utf8"))
      if (Either.isLeft(message)) return fail(message.left)
      switch (message.right.type) {
        case "mark":
          return offer({ _tag: "Mark", name: message.right.name })
        case "dtmf":
          return offer({ _tag: "Dtmf", digit: message.right.digit })
        case "stop":
          return stop()
      }
    })
    socket.on("close", (code) => {
      // a page closed or left (1000, 1001) is the person ending the session; anything else a drop
      if (code === 1000 || code === 1001) stop()
      else fail(`the socket closed (${code})`)
    })
    socket.on("error", (error) =>
      fail(`the socket failed (${(error as NodeJS.ErrnoException).code ?? "error"})`)
    )
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING)
          socket.close(1000)
      })
    )

    const sendFrame = guarded.send
    const send = (message: BrowserSocketMessages.Outbound) =>
      sendFrame(BrowserSocketMessages.encodeOutbound(message))

    const session: MediaSession = {
      sample_rate: BrowserSocketMessages.sampleRate,
      events: inbound.stream,
      sendAudio: (samples) => (samples.length === 0 ? Effect.void : sendFrame(Pcm16Bytes.encode(samples))),
      sendMark: (name) => send({ type: "mark", name }),
      clear: send({ type: "clear" })
    }
    return { session, send }
  })
