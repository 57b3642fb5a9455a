import { HttpServer } from "@effect/platform"
import { Effect } from "effect"
import { connect } from "node:net"

/** An answer read off the wire, or why there was none. */
export interface RawResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
  /** The JSON body, or undefined when the body is not JSON. */
  readonly body: unknown
  /** Body bytes the client had written when the answer's head arrived. */
  readonly bytesSentBeforeAnswer: number
  /** How long the answer took from the first byte written. */
  readonly milliseconds: number
}

/** What to send after the head: nothing, fixed bytes, or a generated body (chunked or with its length). */
export type RawBody =
  | undefined
  | Uint8Array
  | {
      readonly totalBytes: number
      readonly chunked: boolean
      readonly keepSendingAfterAnswer?: boolean
      /** The first bytes (e.g. a multipart part's head); zeros follow up to `totalBytes`. */
      readonly prefix?: Uint8Array
    }

/** No answer within the deadline, or the connection closed without one. */
export class NoAnswer extends Error {
  constructor(
    readonly reason: "timeout" | "closed",
    readonly received: string
  ) {
    super(`no answer (${reason}): ${received.slice(0, 200)}`)
  }
}

const chunkOfZeros = new Uint8Array(64 * 1024)

/** Parses a complete response out of `buffer`, or answers undefined while more is needed. */
const parse = (buffer: Buffer, closed: boolean) => {
  const end = buffer.indexOf("\r\n\r\n")
  if (end === -1) return undefined
  const [statusLine, ...lines] = buffer.subarray(0, end).toString("latin1").split("\r\n")
  const status = Number(statusLine!.split(" ")[1])
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(":")
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  const rest = buffer.subarray(end + 4)
  let bodyBytes: Buffer | undefined
  if (headers["content-length"] !== undefined) {
    const length = Number(headers["content-length"])
    if (rest.length >= length) bodyBytes = rest.subarray(0, length)
  } else if (headers["transfer-encoding"]?.toLowerCase() === "chunked") {
    const parts: Array<Buffer> = []
    let at = 0
    for (;;) {
      const lineEnd = rest.indexOf("\r\n", at)
      if (lineEnd === -1) break
      const size = parseInt(rest.subarray(at, lineEnd).toString("latin1"), 16)
      if (size === 0) {
        bodyBytes = Buffer.concat(parts)
        break
      }
      if (rest.length < lineEnd + 2 + size + 2) break
      parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size))
      at = lineEnd + 2 + size + 2
    }
  } else if (closed || status === 204 || status === 304) bodyBytes = rest
  if (bodyBytes === undefined) return undefined
  const text = bodyBytes.toString("utf8")
  let body: unknown = undefined
  try {
    body = JSON.parse(text)
  } catch {
    // not JSON
  }
  return { status, headers, text, body }
}

/**
 * Sends `head` (the request line and headers, without the blank line) and `body` over a raw socket, as
 * written, and reads one answer. A generated body is written as it drains, and stops when the answer
 * arrives (as curl and fetch do) unless `keepSendingAfterAnswer`. Fails with `NoAnswer` after
 * `timeoutMs`.
 */
export const exchange = (
  port: number,
  head: string,
  body: RawBody,
  timeoutMs = 10_000
): Promise<RawResponse> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1")
    let received = Buffer.alloc(0)
    let sent = 0
    let sentBeforeAnswer: number | undefined
    let settled = false
    const started = Date.now()
    const finish = (outcome: RawResponse | NoAnswer) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      if (outcome instanceof NoAnswer) reject(outcome)
      else resolve(outcome)
    }
    const timer = setTimeout(() => finish(new NoAnswer("timeout", received.toString("latin1"))), timeoutMs)
    const onBytes = (closed: boolean) => {
      if (sentBeforeAnswer === undefined && received.indexOf("\r\n\r\n") !== -1) sentBeforeAnswer = sent
      const parsed = parse(received, closed)
      if (parsed !== undefined) {
        const done = () =>
          finish({
            ...parsed,
            bytesSentBeforeAnswer: sentBeforeAnswer ?? sent,
            milliseconds: Date.now() - started
          })
        // A hostile client goes on sending: wait until it has written everything, then report.
        if (body !== undefined && !(body instanceof Uint8Array) && body.keepSendingAfterAnswer && !closed)
          writingDone.then(done, done)
        else done()
      } else if (closed) finish(new NoAnswer("closed", received.toString("latin1")))
    }
    socket.on("data", (data: Buffer) => {
      received = Buffer.concat([received, data])
      onBytes(false)
    })
    socket.on("close", () => onBytes(true))
    socket.on("error", () => {
      // a reset after the answer is fine; without one, "close" reports it
    })
    let resolveWriting: () => void = () => {}
    const writingDone = new Promise<void>((done) => (resolveWriting = done))
    socket.write(`${head}\r\n\r\n`, "latin1")
    if (body === undefined) return resolveWriting()
    if (body instanceof Uint8Array) {
      socket.write(body)
      sent = body.length
      return resolveWriting()
    }
    const writeMore = () => {
      while (!socket.destroyed) {
        const stop = sentBeforeAnswer !== undefined && !body.keepSendingAfterAnswer
        if (stop || sent >= body.totalBytes) {
          if (body.chunked && !stop && !socket.destroyed) socket.write("0\r\n\r\n")
          return resolveWriting()
        }
        const prefix = sent === 0 ? body.prefix : undefined
        const size = prefix?.length ?? Math.min(chunkOfZeros.length, body.totalBytes - sent)
        const chunk = prefix ?? chunkOfZeros.subarray(0, size)
        const flushed = body.chunked
          ? [socket.write(`${size.toString(16)}\r\n`), socket.write(chunk), socket.write("\r\n")].every(
              Boolean
            )
          : socket.write(chunk)
        sent += size
        if (!flushed) return socket.once("drain", writeMore)
      }
      resolveWriting()
    }
    writeMore()
  })

/** The port of the test server. */
export const port = Effect.map(HttpServer.HttpServer, (server) =>
  server.address._tag === "TcpAddress" ? server.address.port : 0
)
