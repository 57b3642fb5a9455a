/**
 * The fake OpenAI-compatible server, a standalone program (Node's built-ins only): it listens on
 * 127.0.0.1 on a port the system picks and prints `{"port":…,"base_url":"http://127.0.0.1:…/v1"}` as its
 * first stdout line. `POST …/chat/completions` (any path outside `/__fake/`) is answered by the next
 * scripted answer, else by `FakeModel`. Control API, JSON over HTTP on the same port:
 *
 * - `POST /__fake/answers {answers: [ScriptedAnswer…]}` queues answers;
 * - `GET /__fake/requests` → `{requests: [RecordedRequest…]}`;
 * - `POST /__fake/default-delay {ms}` makes unscripted answers wait (a model that takes its time);
 * - `POST /__fake/reset` forgets answers, requests and the default delay.
 *
 * It exits when its stdin closes, so it never outlives the process that started it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import * as FakeModel from "./FakeModel.js"
import type { RecordedRequest, ScriptedAnswer, ScriptedReply } from "./FakeScript.js"

type Json = Record<string, unknown>

/** Requests larger than this are refused (the fake holds everything it records). */
const maxRequestBytes = 16 * 1024 * 1024

let queue: Array<ScriptedAnswer> = []
let recorded: Array<{ -readonly [K in keyof RecordedRequest]: RecordedRequest[K] }> = []
let defaultDelayMs = 0

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    request.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > maxRequestBytes) {
        reject(new Error("request too large"))
        request.destroy()
      } else chunks.push(chunk)
    })
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    request.on("error", reject)
  })

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

const sendJson = (
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {}
) => {
  response.writeHead(status, { "content-type": "application/json", ...headers })
  response.end(JSON.stringify(body))
}

/** An exchange that ends when the answer is written or the client goes away, whichever is first. */
const exchange = (response: ServerResponse, record: { client_closed: boolean }) => {
  let finished = false
  const onClose = new Set<() => void>()
  response.on("finish", () => (finished = true))
  response.on("close", () => {
    if (!finished) record.client_closed = true
    for (const callback of onClose) callback()
  })
  const gone = () => response.destroyed || response.writableEnded
  /** Resolves `settle(true)` when `start` calls it, `false` as soon as the client goes away. */
  const until = (start: (settle: (open: boolean) => void) => () => void) =>
    new Promise<boolean>((resolve) => {
      if (gone()) return resolve(false)
      let stop = () => {}
      const closed = () => settle(false)
      const settle = (open: boolean) => {
        onClose.delete(closed)
        stop()
        resolve(open && !gone())
      }
      onClose.add(closed)
      stop = start(settle)
    })
  /** Waits `ms`; false when the client went away meanwhile. */
  const wait = (ms: number | undefined) =>
    ms === undefined || ms <= 0
      ? Promise.resolve(!gone())
      : until((settle) => {
          const timer = setTimeout(() => settle(true), ms)
          return () => clearTimeout(timer)
        })
  /** Writes, waiting for the socket to drain; false when the client went away. */
  const write = (text: string) =>
    until((settle) => {
      if (response.write(text)) {
        queueMicrotask(() => settle(true))
        return () => {}
      }
      const drained = () => settle(true)
      response.once("drain", drained)
      return () => response.off("drain", drained)
    })
  return { wait, write, gone }
}

const sseHead = (status: number | undefined, headers: Readonly<Record<string, string>> | undefined) => ({
  status: status ?? 200,
  headers: { "content-type": "text/event-stream", "cache-control": "no-cache", ...headers }
})

const answer = async (
  scripted: ScriptedAnswer,
  body: Json,
  response: ServerResponse,
  record: { client_closed: boolean }
) => {
  const io = exchange(response, record)
  if (scripted.kind === "hang") return
  if (!(await io.wait(scripted.delay_ms))) return
  const streamed = body["stream"] === true
  switch (scripted.kind) {
    case "json":
      return sendJson(response, scripted.status ?? 200, scripted.body, { ...scripted.headers })
    case "raw": {
      response.writeHead(scripted.status ?? 200, { ...scripted.headers })
      response.flushHeaders()
      for (const [index, chunk] of scripted.chunks.entries()) {
        if (index > 0 && !(await io.wait(scripted.event_delay_ms))) return
        if (!(await io.write(chunk))) return
      }
      return response.end()
    }
    case "sse":
      return writeEvents(response, io, sseHead(scripted.status, scripted.headers), scripted.events, {
        delayMs: scripted.event_delay_ms,
        done: scripted.done ?? true,
        hangAfter: scripted.hang_after
      })
    case "reply": {
      const reply: ScriptedReply = scripted
      if (!streamed)
        return sendJson(response, scripted.status ?? 200, FakeModel.completion(reply, body), {
          ...scripted.headers
        })
      return writeEvents(
        response,
        io,
        sseHead(scripted.status, scripted.headers),
        FakeModel.streamChunks(reply, body, scripted),
        { delayMs: scripted.event_delay_ms, done: true, hangAfter: undefined }
      )
    }
    case "oversized":
      return writeOversized(response, io, scripted.bytes, streamed, scripted.status, scripted.headers)
  }
}

const writeEvents = async (
  response: ServerResponse,
  io: ReturnType<typeof exchange>,
  head: { readonly status: number; readonly headers: Record<string, string> },
  events: ReadonlyArray<unknown>,
  options: {
    readonly delayMs: number | undefined
    readonly done: boolean
    readonly hangAfter: number | undefined
  }
) => {
  response.writeHead(head.status, head.headers)
  response.flushHeaders()
  for (const [index, event] of events.entries()) {
    if (options.hangAfter !== undefined && index >= options.hangAfter) return
    if (index > 0 && !(await io.wait(options.delayMs))) return
    if (!(await io.write(typeof event === "string" ? event : `data: ${JSON.stringify(event)}\n\n`))) return
  }
  if (options.hangAfter !== undefined) return
  if (options.done && !(await io.write("data: [DONE]\n\n"))) return
  response.end()
}

/** A 200 answer of about `bytes` bytes: one long text, whole or in 16 KiB deltas. */
const writeOversized = async (
  response: ServerResponse,
  io: ReturnType<typeof exchange>,
  bytes: number,
  streamed: boolean,
  status: number | undefined,
  headers: Readonly<Record<string, string>> | undefined
) => {
  const piece = "a".repeat(16 * 1024)
  if (streamed) {
    response.writeHead(status ?? 200, sseHead(status, headers).headers)
    for (let sent = 0; sent < bytes; sent += piece.length) {
      if (
        !(await io.write(
          `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: piece } }] })}\n\n`
        ))
      )
        return
    }
    if (!(await io.write("data: [DONE]\n\n"))) return
    return response.end()
  }
  response.writeHead(status ?? 200, { "content-type": "application/json", ...headers })
  if (
    !(await io.write(
      '{"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"'
    ))
  )
    return
  for (let sent = 0; sent < bytes; sent += piece.length) if (!(await io.write(piece))) return
  if (await io.write('"}}]}')) response.end()
}

const control = async (request: IncomingMessage, response: ServerResponse, path: string) => {
  const body = parsed(await readBody(request)) as Json
  if (request.method === "POST" && path === "/__fake/answers" && Array.isArray(body["answers"])) {
    queue.push(...(body["answers"] as Array<ScriptedAnswer>))
    return sendJson(response, 200, { queued: queue.length })
  }
  if (request.method === "GET" && path === "/__fake/requests")
    return sendJson(response, 200, { requests: recorded })
  if (request.method === "POST" && path === "/__fake/default-delay" && typeof body["ms"] === "number") {
    defaultDelayMs = body["ms"]
    return sendJson(response, 200, {})
  }
  if (request.method === "POST" && path === "/__fake/reset") {
    queue = []
    recorded = []
    defaultDelayMs = 0
    return sendJson(response, 200, {})
  }
  return sendJson(response, 404, { error: "unknown control request" })
}

const server = createServer(async (request, response) => {
  try {
    const path = new URL(request.url ?? "/", "http://fake").pathname
    if (path.startsWith("/__fake/")) return await control(request, response, path)
    const text = await readBody(request)
    const body = parsed(text)
    const headers = Object.fromEntries(
      Object.entries(request.headers).map(([name, value]) => [
        name,
        Array.isArray(value) ? value.join(", ") : (value ?? "")
      ])
    )
    const record = { method: request.method ?? "", path, headers, body, client_closed: false }
    recorded.push(record)
    const json = typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Json) : {}
    const scripted = queue.shift()
    if (scripted !== undefined) return await answer(scripted, json, response, record)
    if (request.method !== "POST" || !path.endsWith("/chat/completions")) {
      return sendJson(response, 404, {
        error: {
          message: `Unknown request URL: ${request.method} ${path}`,
          type: "invalid_request_error",
          code: "unknown_url"
        }
      })
    }
    return await answer(
      { kind: "reply", ...FakeModel.defaultReply(json), delay_ms: defaultDelayMs },
      json,
      response,
      record
    )
  } catch (error) {
    if (!response.headersSent)
      sendJson(response, 500, { error: { message: String(error), type: "fake_server_error" } })
    else response.destroy()
  }
})

server.listen(0, "127.0.0.1", () => {
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  process.stdout.write(`${JSON.stringify({ port, base_url: `http://127.0.0.1:${port}/v1` })}\n`)
})

// the parent holds our stdin: when it goes (even killed), so do we
process.stdin.on("end", () => process.exit(0))
process.stdin.on("close", () => process.exit(0))
process.stdin.resume()
