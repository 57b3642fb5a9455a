/** The hostile tenant's requests: 10 MB audio, octet-stream and XML bodies, unauthenticated chunked bodies, multipart to JSON endpoints, slow drips. */
import { request } from "node:http"
import { connect } from "node:net"
import { type Answer, call, maxRequestsPerClient, requestTimeoutMs } from "./TimedRequests.js"

export const skipped = (process.env.HOSTILE_BENCH_SKIP ?? "")
  .split(",")
  .map((word) => word.trim().toLowerCase())
  .filter((word) => word !== "")

export const hostileClients = 8

/** Hostile requests wait longer: past the server's 30 s request deadline, to see what it answers them. */
export const hostileTimeoutMs = 45_000

export const hostileKey = `vap_${"H".repeat(40)}`

/** A body of `bytes` bytes of one repeated character. */
export const filler = (bytes: number, fill = "a") => Buffer.alloc(bytes, fill)

/** A multipart body with one file part. */
export const multipart = (bytes: number) => {
  const boundary = "hostile-bench-boundary"
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`
    ),
    filler(bytes),
    Buffer.from(`\r\n--${boundary}--\r\n`)
  ])
  return { body, contentType: `multipart/form-data; boundary=${boundary}` }
}

/** Sends a chunked body of `bytes` without an API key, in 64 KiB chunks as fast as the server takes them. */
export const unauthenticatedChunked = (port: number, bytes: number) =>
  new Promise<Answer | "timeout" | "error">((resolve) => {
    let settled = false
    const settle = (value: Answer | "timeout" | "error") => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(value)
    }
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/api/v1/agents/from-script",
        headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
        agent: false
      },
      (res) => {
        res.resume()
        res.on("end", () => settle({ status: res.statusCode ?? 0, text: "" }))
      }
    )
    const timer = setTimeout(() => {
      req.destroy()
      settle("timeout")
    }, hostileTimeoutMs)
    req.on("error", () => settle("error"))
    const chunk = filler(64 * 1024, " ")
    let sent = 0
    const pump = () => {
      while (sent < bytes && !settled) {
        sent += chunk.length
        if (!req.write(chunk)) return void req.once("drain", pump)
      }
      if (!settled) req.end()
    }
    pump()
  })

/** A body promised 1000 bytes long, dripped one byte every 200 ms until the server or the timeout ends it. */
export const slowDrip = (port: number, apiKey: string, until: number) =>
  new Promise<string>((resolve) => {
    const socket = connect({ host: "127.0.0.1", port })
    let answer = ""
    const drip = setInterval(() => {
      if (socket.writable) socket.write(" ")
    }, 200)
    const done = (outcome: string) => {
      clearInterval(drip)
      clearTimeout(timer)
      socket.destroy()
      resolve(outcome)
    }
    // the drip is given the run's remaining time, at most the request timeout
    const timer = setTimeout(
      () => done("held"),
      Math.max(1000, Math.min(requestTimeoutMs, until - Date.now()))
    )
    socket.on("data", (chunk) => (answer += chunk.toString("latin1")))
    socket.on("close", () => done(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? "closed"))
    socket.on("error", () => undefined)
    socket.write(
      "POST /api/v1/agents/from-script HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
        `X-API-Key: ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`
    )
  })

/** Eight clients of a hostile organization, each cycling through the bodies of the issue. */
export const hostileLoad = async (port: number, until: number) => {
  const outcomes = new Map<string, number>()
  const count = (kind: string, answer: Answer | "timeout" | "error" | string) => {
    const key = `${kind} → ${typeof answer === "object" ? answer.status : answer}`
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1)
  }
  const json = "/api/v1/agents/from-script"
  const authenticated = (contentType: string) => ({ "x-api-key": hostileKey, "content-type": contentType })
  const kinds: ReadonlyArray<readonly [string, () => Promise<Answer | "timeout" | "error" | string>]> = [
    [
      "10 MB audio/wav to a JSON endpoint",
      () =>
        call({
          port,
          timeoutMs: hostileTimeoutMs,
          method: "POST",
          path: json,
          headers: authenticated("audio/wav"),
          body: filler(10 * 1024 * 1024)
        })
    ],
    [
      "1 MB application/octet-stream",
      () =>
        call({
          port,
          timeoutMs: hostileTimeoutMs,
          method: "POST",
          path: json,
          headers: authenticated("application/octet-stream"),
          body: filler(1024 * 1024)
        })
    ],
    [
      "application/xml",
      () =>
        call({
          port,
          timeoutMs: hostileTimeoutMs,
          method: "POST",
          path: json,
          headers: authenticated("application/xml"),
          body: `<agent><greeting>${"x".repeat(64 * 1024)}</greeting></agent>`
        })
    ],
    ["20 MB chunked, no API key", () => unauthenticatedChunked(port, 20 * 1024 * 1024)],
    [
      "1 MB multipart/form-data to a JSON endpoint",
      () => {
        const { body, contentType } = multipart(1024 * 1024)
        return call({
          port,
          timeoutMs: hostileTimeoutMs,
          method: "POST",
          path: json,
          headers: authenticated(contentType),
          body
        })
      }
    ],
    ["slow body drip", () => slowDrip(port, hostileKey, until)]
  ]
  const chosen = kinds.filter(([kind]) => !skipped.some((word) => kind.toLowerCase().includes(word)))
  if (chosen.length === 0) return outcomes
  const client = async (index: number) => {
    for (let i = 0; i < maxRequestsPerClient && Date.now() < until; i++) {
      const [kind, send] = chosen[(i + index) % chosen.length]!
      count(kind, await send())
    }
  }
  await Promise.all(Array.from({ length: hostileClients }, (_, i) => client(i)))
  return outcomes
}
