import { Context, Effect, Layer, type Scope } from "effect"
import * as Http from "node:http"
import * as Net from "node:net"
import type { AddressInfo } from "node:net"
import { type WebSocket, WebSocketServer } from "ws"
import { emptyScript, metadata, type Message, type Script, type Step, utterance } from "./DeepgramScript.js"
import * as SpokenTurns from "./SpokenTurns.js"

/**
 * A fake of Deepgram's live streaming API on loopback (in-process): a WebSocket server that checks the
 * upgrade's `Authorization: Token <key>` (401 otherwise, as Deepgram answers) and its query (400 for a
 * missing or unknown parameter value), records the audio bytes and control messages each connection
 * receives, and answers with a scripted `Script` (results after so many audio bytes, a drop, a close).
 * On `CloseStream` it does the steps left, sends `Metadata` and closes with 1000, as Deepgram does.
 */

/** What one connection received. */
export interface Connection {
  /** The upgrade's query parameters. */
  readonly query: Readonly<Record<string, string>>
  /** The audio received, in order. */
  readonly audio: ReadonlyArray<Buffer>
  readonly audioBytes: number
  /** The `type` of each text message received (`KeepAlive`, `CloseStream`; `invalid` for non-JSON). */
  readonly controls: ReadonlyArray<string>
  /** Whether the connection has closed. */
  readonly closed: boolean
}

export interface FakeDeepgram {
  /** The listen endpoint: `ws://127.0.0.1:{port}/v1/listen`. */
  readonly url: string
  /** The key it accepts. */
  readonly apiKey: string
  /** Queues scripts for the next connections, one each (a connection without one gets an empty script). */
  readonly script: (...scripts: ReadonlyArray<Script>) => Effect.Effect<void>
  /** Every connection accepted so far, in order (a snapshot). */
  readonly connections: Effect.Effect<ReadonlyArray<Connection>>
  /** Upgrades refused (wrong key, bad query), with their status. */
  readonly refused: Effect.Effect<ReadonlyArray<number>>
}

export const FakeDeepgram = Context.GenericTag<FakeDeepgram>(
  "@voice-agent-platform/voice/testing/FakeDeepgram"
)

const encodings = ["mulaw", "linear16"]
const isNumber = (value: string | null) => value !== null && /^\d+$/.test(value)

/** Why the fake refuses a query, as Deepgram would (400), or null when it is complete. */
const queryProblem = (query: URLSearchParams): string | null => {
  if (!encodings.includes(query.get("encoding") ?? "")) return "encoding"
  if (!isNumber(query.get("sample_rate"))) return "sample_rate"
  if (query.get("channels") !== "1") return "channels"
  if (query.get("interim_results") !== "true") return "interim_results"
  if (!isNumber(query.get("endpointing"))) return "endpointing"
  if (!isNumber(query.get("utterance_end_ms"))) return "utterance_end_ms"
  if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(query.get("language") ?? "")) return "language"
  return null
}

const refuse = (socket: Net.Socket, status: number, body: object) => {
  const text = JSON.stringify(body)
  socket.end(
    `HTTP/1.1 ${status} ${Http.STATUS_CODES[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`
  )
}

/** The fake, listening until the scope closes (then every connection is destroyed). */
export const make = (
  options: {
    readonly apiKey?: string
    /** The script of a connection none was queued for (default: the empty one). */
    readonly defaultScript?: Script
  } = {}
): Effect.Effect<FakeDeepgram, never, Scope.Scope> =>
  Effect.gen(function* () {
    const apiKey = options.apiKey ?? "dg-test-key-0123456789abcdef"
    const scripts: Array<Script> = []
    const records: Array<{
      query: Record<string, string>
      audio: Array<Buffer>
      controls: Array<string>
      closed: boolean
    }> = []
    const refused: Array<number> = []
    const sockets = new Set<Net.Socket>()
    const timers = new Set<ReturnType<typeof setTimeout>>()
    const server = Http.createServer((_request, response) => response.writeHead(426).end())
    const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false })
    server.on("connection", (socket) => {
      sockets.add(socket)
      socket.on("close", () => sockets.delete(socket))
    })
    server.on("upgrade", (request, socket, head) => {
      const url = new URL(request.url ?? "/", "http://127.0.0.1")
      if (request.headers.authorization !== `Token ${apiKey}`) {
        refused.push(401)
        // Deepgram's words; this one repeats what it was sent, so a client that repeated them would leak the key
        refuse(socket as Net.Socket, 401, {
          err_code: "INVALID_AUTH",
          err_msg: `Invalid credentials: ${request.headers.authorization ?? "none"}`
        })
        return
      }
      const problem = url.pathname === "/v1/listen" ? queryProblem(url.searchParams) : "path"
      if (problem !== null) {
        refused.push(400)
        refuse(socket as Net.Socket, 400, { err_code: "Bad Request", err_msg: `Invalid ${problem}` })
        return
      }
      wss.handleUpgrade(request, socket, head, (ws) =>
        serve(
          ws,
          Object.fromEntries(url.searchParams),
          scripts.shift() ?? options.defaultScript ?? emptyScript
        )
      )
    })

    const serve = (ws: WebSocket, query: Record<string, string>, script: Script) => {
      const record = { query, audio: [] as Array<Buffer>, controls: [] as Array<string>, closed: false }
      records.push(record)
      const steps = [...script.steps].sort((a, b) => a.afterBytes - b.afterBytes)
      let received = 0
      let ended = false
      const send = (message: Message) =>
        ws.send(typeof message === "string" ? message : JSON.stringify(message))
      const perform = (step: Step) => {
        if (ended) return
        if ("send" in step) step.send.forEach(send)
        else if ("drop" in step) {
          ended = true
          ws.terminate()
        } else {
          ended = true
          ws.close(step.close.code, step.close.reason)
        }
      }
      const delayMs = script.delayMs ?? 0
      const later = (step: Step) => {
        if (delayMs <= 0) return perform(step)
        const timer = setTimeout(() => {
          timers.delete(timer)
          perform(step)
        }, delayMs)
        timers.add(timer)
      }
      const due = () => {
        while (steps.length > 0 && steps[0]!.afterBytes <= received) later(steps.shift()!)
      }
      const spoken = script.spoken
      const hear = spoken === undefined ? null : SpokenTurns.listener(spoken, query)
      let utterances = 0
      ws.on("message", (data: Buffer, isBinary) => {
        if (isBinary) {
          record.audio.push(Buffer.from(data))
          received += data.length
          due()
          if (hear !== null && hear(data) > 0) {
            const texts = spoken!.texts
            later(utterance(texts[Math.min(utterances++, texts.length - 1)] ?? "", 0))
          }
          return
        }
        let type = "invalid"
        try {
          const parsed = JSON.parse(data.toString()) as { type?: unknown }
          if (typeof parsed.type === "string") type = parsed.type
        } catch {
          // recorded as invalid
        }
        record.controls.push(type)
        if (type === "CloseStream" && !script.ignoreCloseStream && !ended) {
          steps.splice(0).forEach(perform)
          if (!ended) {
            send(metadata())
            ended = true
            ws.close(1000)
          }
        }
      })
      ws.on("close", () => {
        record.closed = true
      })
      due()
    }

    yield* Effect.acquireRelease(
      Effect.async<void>((resume) => {
        server.listen(0, "127.0.0.1", () => resume(Effect.void))
      }),
      () =>
        Effect.async<void>((resume) => {
          for (const timer of timers) clearTimeout(timer)
          for (const client of wss.clients) client.terminate()
          for (const socket of sockets) socket.destroy()
          wss.close()
          server.close(() => resume(Effect.void))
        })
    )
    const { port } = server.address() as AddressInfo
    return {
      url: `ws://127.0.0.1:${port}/v1/listen`,
      apiKey,
      script: (...more) => Effect.sync(() => void scripts.push(...more)),
      connections: Effect.sync(() =>
        records.map((record) => ({
          query: { ...record.query },
          audio: [...record.audio],
          audioBytes: record.audio.reduce((sum, chunk) => sum + chunk.length, 0),
          controls: [...record.controls],
          closed: record.closed
        }))
      ),
      refused: Effect.sync(() => [...refused])
    } satisfies FakeDeepgram
  })

/** The fake as a layer (one server for the layer's life). */
export const layer = (options: { readonly apiKey?: string } = {}): Layer.Layer<FakeDeepgram> =>
  Layer.scoped(FakeDeepgram, make(options))

/**
 * A server that accepts TCP connections and never answers (never upgrades): for connect deadlines. It
 * counts the connections accepted and still open.
 */
export const neverUpgrades: Effect.Effect<
  { readonly url: string; readonly accepted: Effect.Effect<number>; readonly open: Effect.Effect<number> },
  never,
  Scope.Scope
> = Effect.gen(function* () {
  const sockets = new Set<Net.Socket>()
  let accepted = 0
  const server = Net.createServer((socket) => {
    accepted += 1
    sockets.add(socket)
    socket.on("error", () => undefined)
    // reads and drops the request (a socket never read from never sees the client's end)
    socket.resume()
    socket.on("close", () => sockets.delete(socket))
  })
  yield* Effect.acquireRelease(
    Effect.async<void>((resume) => {
      server.listen(0, "127.0.0.1", () => resume(Effect.void))
    }),
    () =>
      Effect.async<void>((resume) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resume(Effect.void))
      })
  )
  const { port } = server.address() as AddressInfo
  return {
    url: `ws://127.0.0.1:${port}/v1/listen`,
    accepted: Effect.sync(() => accepted),
    open: Effect.sync(() => sockets.size)
  }
})
