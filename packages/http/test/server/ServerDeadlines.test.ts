import { afterAll, describe, expect, it } from "@effect/vitest"
import { TestDatabase } from "@voice-agent-platform/pg/testing"
import { request } from "node:http"
import { connect, type Socket } from "node:net"
import {
  call,
  dataDirectory,
  freePort,
  removeDataDirectories,
  send,
  signalGroup,
  spawnServer,
  start,
  stop
} from "../support/ServerProcesses.js"

const reachable = await TestDatabase.serverReachable()
if (!reachable) TestDatabase.warnUnreachable("the request deadline test (it runs on PostgreSQL)")

/** What came back on a raw connection, and when (and whether) the server closed it. */
interface RawOutcome {
  readonly text: string
  readonly closed: boolean
  readonly elapsedMs: number
}

/**
 * Opens a raw connection, lets `drive` write to it, and collects what the server sends until it closes the
 * connection or `giveUpMs` passes (then the connection is dropped by the test and `closed` is false).
 */
const raw = (port: number, drive: (socket: Socket) => void, giveUpMs: number) =>
  new Promise<RawOutcome>((resolve) => {
    const started = Date.now()
    const socket = connect({ host: "127.0.0.1", port })
    let text = ""
    let done = false
    const finish = (closed: boolean) => {
      if (done) return
      done = true
      clearTimeout(giveUp)
      socket.destroy()
      resolve({ text, closed, elapsedMs: Date.now() - started })
    }
    const giveUp = setTimeout(() => finish(false), giveUpMs)
    socket.on("data", (chunk) => (text += chunk.toString("latin1")))
    socket.on("close", () => finish(true))
    socket.on("error", () => undefined)
    socket.on("connect", () => drive(socket))
  })

/** The status and the JSON body of a raw HTTP/1.1 answer. */
const parsed = (text: string) => {
  const [head = "", body = ""] = text.split("\r\n\r\n", 2)
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1])
  let json: any = undefined
  try {
    json = JSON.parse(body)
  } catch {
    json = undefined
  }
  return { status, head: head.toLowerCase(), json }
}

/** An organization's key: a body is read only once the key is checked, so slow bodies must carry one. */
const dripKey = `vap_${"S".repeat(40)}`

describe("the bundled server's deadlines and limits (npm start)", () => {
  afterAll(removeDataDirectories)

  it("answers slow headers, a slow body drip, oversized headers and malformed requests in JSON, and closes idle connections", async () => {
    const server = await start({
      BOOTSTRAP_API_KEY: dripKey,
      HEADERS_TIMEOUT_SECONDS: "1",
      REQUEST_BODY_TIMEOUT_SECONDS: "2",
      KEEP_ALIVE_TIMEOUT_SECONDS: "1"
    })
    const drips: Array<ReturnType<typeof setInterval>> = []
    try {
      const [slowHeaders, drip, keptAlive, oversized, malformed] = await Promise.all([
        // headers that never finish
        raw(
          server.port,
          (socket) => socket.write("GET /health HTTP/1.1\r\nHost: localhost\r\nX-Slow: "),
          15_000
        ),
        // a body promised 1000 bytes long, sent one byte every 200 ms
        raw(
          server.port,
          (socket) => {
            socket.write(
              "POST /api/v1/agents/from-script HTTP/1.1\r\nHost: localhost\r\n" +
                `X-API-Key: ${dripKey}\r\n` +
                "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
            )
            drips.push(setInterval(() => socket.writable && socket.write(" "), 200))
          },
          20_000
        ),
        // one request on a kept-alive connection, then silence
        raw(server.port, (socket) => socket.write("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n"), 15_000),
        // a header block over 16 KiB
        raw(
          server.port,
          (socket) =>
            socket.write(`GET /health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`),
          15_000
        ),
        // not HTTP at all
        raw(server.port, (socket) => socket.write("HELLO THERE\r\n\r\n"), 15_000)
      ])

      // Limits of 1-2 s, checked with room for a loaded machine; Node's defaults would take 60-300 s.
      expect(slowHeaders.closed).toBe(true)
      expect(slowHeaders.elapsedMs).toBeLessThan(8_000)
      expect(parsed(slowHeaders.text).status).toBe(408)
      expect(parsed(slowHeaders.text).head).toContain("content-type: application/json")
      expect(parsed(slowHeaders.text).json.detail).toMatch(/headers did not arrive in time.*1 s/)

      expect(drip.closed).toBe(true)
      expect(drip.elapsedMs).toBeLessThan(12_000)
      expect(parsed(drip.text).status).toBe(408)
      expect(parsed(drip.text).json.detail).toMatch(/within 2 s/)

      expect(parsed(keptAlive.text).status).toBe(200)
      expect(keptAlive.closed).toBe(true)
      // 1 s of keep-alive; Node's default closes after 5 s (+1 s)
      expect(keptAlive.elapsedMs).toBeLessThan(4_500)

      expect(oversized.closed).toBe(true)
      expect(parsed(oversized.text).status).toBe(431)
      expect(parsed(oversized.text).head).toContain("content-type: application/json")
      expect(parsed(oversized.text).json.detail).toMatch(/headers are larger than 16384 bytes/)

      expect(parsed(malformed.text).status).toBe(400)
      expect(typeof parsed(malformed.text).json.detail).toBe("string")

      // the server is still fine
      expect((await call(server.port, "GET", "/health")).status).toBe(200)
    } finally {
      for (const drip of drips) clearInterval(drip)
      await stop(server)
    }
  }, 90_000)

  // On PostgreSQL, where the handler waits on the network: the deadline is a timer, and the embedded
  // database runs its statements in this process without giving timers a turn (its work finishes first).
  it.skipIf(!reachable)(
    "answers 503 {detail} with X-Request-Id when a handler runs past REQUEST_DEADLINE_SECONDS",
    async () => {
      const key = `vap_${"D".repeat(40)}`
      const database = await TestDatabase.createDatabase()
      try {
        // 1 ms: writing an agent to PostgreSQL takes longer than that
        const server = await start({
          BOOTSTRAP_API_KEY: key,
          REQUEST_DEADLINE_SECONDS: "0.001",
          DATABASE_URL: TestDatabase.databaseUrl(database),
          ENCRYPTION_KEY: "an-encryption-key-for-the-deadline-test-01"
        })
        try {
          const answer = await send(
            server.port,
            "POST",
            "/api/v1/agents/from-script",
            { apiKey: key },
            {
              agent: { greeting: "Hello" }
            }
          )
          expect(answer.status).toBe(503)
          expect(answer.json.detail).toMatch(/took longer than 0\.001 s/)
          expect(answer.headers["x-request-id"]).toBeDefined()
          expect(answer.headers["content-type"]).toContain("application/json")
        } finally {
          expect(await stop(server)).toBe(0)
        }
      } finally {
        await TestDatabase.dropDatabase(database)
      }
    },
    60_000
  )

  it("closes the connections left at SHUTDOWN_DEADLINE_SECONDS and exits, where a slow body used to hold SIGTERM", async () => {
    const server = await start({
      BOOTSTRAP_API_KEY: dripKey,
      SHUTDOWN_DEADLINE_SECONDS: "1",
      REQUEST_BODY_TIMEOUT_SECONDS: "300"
    })
    const drips: Array<ReturnType<typeof setInterval>> = []
    const sockets: Array<Socket> = []
    try {
      const opened = (drive: (socket: Socket) => void) =>
        new Promise<Socket>((resolve) => {
          const socket = connect({ host: "127.0.0.1", port: server.port }, () => {
            drive(socket)
            resolve(socket)
          })
          socket.on("error", () => undefined)
          sockets.push(socket)
        })
      // a body dripping slowly (it would take 1000 s), headers that never finish, and an idle kept-alive connection
      await opened((socket) => {
        socket.write(
          `POST /api/v1/agents/from-script HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${dripKey}\r\n` +
            "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
        )
        drips.push(setInterval(() => socket.writable && socket.write(" "), 1000))
      })
      await opened((socket) => socket.write("GET /health HTTP/1.1\r\nHost: localhost\r\n"))
      await opened((socket) => socket.write("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n"))
      await new Promise((resolve) => setTimeout(resolve, 300))
      const stopping = Date.now()
      server.child.kill("SIGTERM")
      const exited = await Promise.race([
        server.exited,
        new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), 20_000))
      ])
      expect(exited).toBe(0)
      // 1 s of grace plus closing the database, with room for a loaded machine
      expect(Date.now() - stopping).toBeLessThan(15_000)
    } finally {
      for (const drip of drips) clearInterval(drip)
      for (const socket of sockets) socket.destroy()
      signalGroup(server.child, "SIGKILL")
    }
  }, 60_000)

  it("refuses or answers every connection made while it starts on a fresh data directory: none hangs", async () => {
    const port = await freePort()
    const child = spawnServer({ DATA_DIR: dataDirectory(), PORT: String(port), HOST: "127.0.0.1" })
    let output = ""
    child.stdout!.on("data", (chunk) => (output += chunk))
    child.stderr!.on("data", (chunk) => (output += chunk))
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
    type Attempt = "refused" | "hung" | { readonly status: number; readonly ready: boolean }
    /** One GET /health; "hung" when neither refused nor answered within 5 s (ready start-ups answer in ms). */
    const attempt = () =>
      new Promise<Attempt>((resolve) => {
        const req = request({ host: "127.0.0.1", port, path: "/health", agent: false }, (res) => {
          // The organization is made before the app is served: an answer before it was printed came too early.
          const ready = output.includes("Created organization")
          res.resume()
          res.on("end", () => {
            clearTimeout(timer)
            resolve({ status: res.statusCode ?? 0, ready })
          })
        })
        const timer = setTimeout(() => {
          req.destroy()
          resolve("hung")
        }, 5_000)
        req.on("error", (error: NodeJS.ErrnoException) => {
          clearTimeout(timer)
          resolve(error.code === "ECONNREFUSED" ? "refused" : "hung")
        })
        req.end()
      })
    const attempts: Array<Attempt> = []
    try {
      const deadline = Date.now() + 60_000
      // Many attempts in flight at once from the moment of spawn, until one is answered.
      while (Date.now() < deadline && child.exitCode === null) {
        const round = await Promise.all([attempt(), attempt(), attempt()])
        attempts.push(...round)
        if (round.some((a) => typeof a === "object")) break
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      const answered = attempts.filter((a): a is { status: number; ready: boolean } => typeof a === "object")
      expect(attempts.filter((a) => a === "hung")).toEqual([])
      expect(answered.length).toBeGreaterThan(0)
      expect(answered.every((a) => a.status === 200 && a.ready)).toBe(true)
      expect(attempts.filter((a) => a === "refused").length).toBeGreaterThan(0)
    } finally {
      signalGroup(child, "SIGTERM")
      const kill = setTimeout(() => signalGroup(child, "SIGKILL"), 20_000)
      await exited
      clearTimeout(kill)
    }
  }, 90_000)
})
