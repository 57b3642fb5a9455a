import { describe, expect, it } from "@effect/vitest"
import {
  AllowList,
  HostResolver,
  IpAddress,
  OutboundHttp,
  OutboundPolicy,
  OutboundErrors
} from "@voice-agent-platform/core"
import { Cause, Effect, Either, Exit, Layer, Option } from "effect"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo, Socket } from "node:net"
import * as NodeOutboundHttp from "../../src/outbound/NodeOutboundHttp.js"

/** What a local listener saw: every connection and request, and when a connection was closed. */
interface Listener {
  readonly port: number
  readonly connections: Array<Socket>
  readonly requests: Array<IncomingMessage>
  readonly closed: Array<number>
}

/** A listener on 127.0.0.1 (random port) answering with `handle`; closed with the scope. */
const listener = (handle: (request: IncomingMessage, response: ServerResponse) => void) =>
  Effect.acquireRelease(
    Effect.async<Listener & { readonly close: () => void }>((resume) => {
      const connections: Array<Socket> = []
      const requests: Array<IncomingMessage> = []
      const closed: Array<number> = []
      const server = createServer((request, response) => {
        requests.push(request)
        handle(request, response)
      })
      server.on("connection", (socket) => {
        connections.push(socket)
        socket.on("close", () => closed.push(Date.now()))
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(
          Effect.succeed({
            port,
            connections,
            requests,
            closed,
            close: () => {
              for (const socket of connections) socket.destroy()
              server.close()
            }
          })
        )
      })
    }),
    ({ close }) => Effect.sync(close)
  )

const policy = (allow: string) => OutboundPolicy.layer(Either.getOrThrow(AllowList.parse(allow)))
const address = (text: string) => Option.getOrThrow(IpAddress.parseHost(text))

/** The client with this allow-list and a resolver answering from `names`. */
const client = (allow: string, names: Record<string, ReadonlyArray<string>> = {}) =>
  NodeOutboundHttp.layerWith.pipe(
    Layer.provide(policy(allow)),
    Layer.provide(
      HostResolver.layerFixed(Object.fromEntries(Object.entries(names).map(([n, a]) => [n, a.map(address)])))
    )
  )

const get = (url: string, overrides: Partial<OutboundHttp.OutboundRequest> = {}) =>
  Effect.flatMap(OutboundHttp.OutboundHttp, (outbound) =>
    outbound.send({
      method: "GET",
      url,
      headers: {},
      timeout: "5 seconds",
      maxResponseBytes: 65_536,
      ...overrides
    })
  )

/** The failure's category, or `answered`. */
const categoryOf = <A>(exit: Exit.Exit<A, OutboundErrors.OutboundFailure>) =>
  Exit.match(exit, {
    onSuccess: () => "answered",
    onFailure: (cause) =>
      Option.match(Cause.failureOption(cause), {
        onNone: () => "defect",
        onSome: (failure) => failure.category
      })
  })

/** Waits in real time (these tests run on the test clock, which the client's deadline must not depend on). */
const realSleep = (millis: number) =>
  Effect.promise(() => new Promise((resolve) => setTimeout(resolve, millis)))

describe("the outbound client (node:http)", () => {
  it.scoped("refuses the issue's spellings of internal addresses with no connection made", () =>
    Effect.gen(function* () {
      const local = yield* listener((_, response) => response.end("should never be reached"))
      const p = local.port
      for (const url of [
        `http://127.0.0.1:${p}/`,
        `http://2130706433:${p}/`,
        `http://0x7f.1:${p}/`,
        `http://0177.0.0.1:${p}/`,
        `http://127.1:${p}/`,
        `http://localhost:${p}/`,
        `http://169.254.169.254/latest/meta-data/`,
        `http://[::1]:${p}/`,
        `http://[::ffff:127.0.0.1]:${p}/`,
        `http://[::ffff:7f00:1]:${p}/`,
        `http://[::127.0.0.1]:${p}/`,
        `http://0:${p}/`
      ]) {
        const exit = yield* Effect.exit(
          get(url).pipe(Effect.provide(NodeOutboundHttp.layer), Effect.provide(OutboundPolicy.layerDefault))
        )
        expect(categoryOf(exit), url).toBe("destination_not_allowed")
      }
      expect(local.connections).toHaveLength(0)
    })
  )

  it.scoped(
    "refuses a name that resolves to a loopback or private address, or to any such among others",
    () =>
      Effect.gen(function* () {
        const local = yield* listener((_, response) => response.end("should never be reached"))
        const layer = client("", {
          "hooks.example.test": ["127.0.0.1"],
          "mixed.example.test": ["93.184.216.34", "10.0.0.1"],
          "metadata.example.test": ["169.254.169.254"],
          "six.example.test": ["::ffff:127.0.0.1"]
        })
        for (const name of ["hooks", "mixed", "metadata", "six"]) {
          const exit = yield* Effect.exit(
            get(`http://${name}.example.test:${local.port}/`).pipe(Effect.provide(layer))
          )
          expect(categoryOf(exit), name).toBe("destination_not_allowed")
        }
        const unknown = yield* Effect.exit(
          get(`http://nowhere.example.test:${local.port}/`).pipe(Effect.provide(layer))
        )
        expect(categoryOf(unknown)).toBe("connection_failed")
        expect(local.connections).toHaveLength(0)
      })
  )

  it.scoped("connects to the address it checked, keeping the name in the Host header", () =>
    Effect.gen(function* () {
      const local = yield* listener((request, response) => {
        response.writeHead(201, { "x-seen-host": String(request.headers.host) })
        request.resume()
        request.on("end", () => response.end("created"))
      })
      // The name is known only to the injected resolver: reaching the listener proves the pinned lookup.
      const layer = client("receiver.test", { "receiver.test": ["127.0.0.1"] })
      const answer = yield* get(`http://receiver.test:${local.port}/in?x=1`, {
        method: "POST",
        body: JSON.stringify({ ok: true }),
        headers: { "content-type": "application/json" }
      }).pipe(Effect.provide(layer))
      expect(answer.status).toBe(201)
      expect(answer.headers["x-seen-host"]).toBe(`receiver.test:${local.port}`)
      expect(new TextDecoder().decode(answer.body)).toBe("created")
      expect(answer.truncated).toBe(false)
      expect(local.requests.map((r) => [r.method, r.url])).toEqual([["POST", "/in?x=1"]])
    })
  )

  it.scoped("reads at most the cap of the response body, then stops", () =>
    Effect.gen(function* () {
      const big = Buffer.alloc(1024 * 1024, "x")
      const local = yield* listener((request, response) => {
        response.writeHead(200, { "content-type": "text/plain" })
        response.end(request.url === "/small" ? "small" : big)
      })
      const layer = client("127.0.0.1")
      const capped = yield* get(`http://127.0.0.1:${local.port}/big`).pipe(Effect.provide(layer))
      expect(capped.body.length).toBe(65_536)
      expect(capped.truncated).toBe(true)
      const exact = yield* get(`http://127.0.0.1:${local.port}/small`, { maxResponseBytes: 5 }).pipe(
        Effect.provide(layer)
      )
      expect([new TextDecoder().decode(exact.body), exact.truncated]).toEqual(["small", false])
    })
  )

  it.scoped("follows no redirect: a 3xx is the answer", () =>
    Effect.gen(function* () {
      const local = yield* listener((request, response) => {
        if (request.url === "/start") response.writeHead(302, { location: "/elsewhere" }).end()
        else response.writeHead(200).end("followed")
      })
      const answer = yield* get(`http://127.0.0.1:${local.port}/start`).pipe(
        Effect.provide(client("127.0.0.1"))
      )
      expect(answer.status).toBe(302)
      expect(answer.headers["location"]).toBe("/elsewhere")
      expect(local.requests.map((r) => r.url)).toEqual(["/start"])
    })
  )

  it.scoped(
    "ends the exchange at its deadline against a receiver that never answers, and closes the connection",
    () =>
      Effect.gen(function* () {
        const local = yield* listener(() => {
          // accepts the request and never answers
        })
        const started = Date.now()
        const exit = yield* Effect.exit(
          get(`http://127.0.0.1:${local.port}/`, { timeout: "1 second" }).pipe(
            Effect.provide(client("127.0.0.1"))
          )
        )
        const elapsed = Date.now() - started
        expect(categoryOf(exit)).toBe("timeout")
        expect(elapsed).toBeGreaterThanOrEqual(950)
        // generous, for a loaded machine: the 1 s deadline cut it
        expect(elapsed).toBeLessThan(4_000)
        // the socket is destroyed: the receiver sees its connection close
        for (let i = 0; i < 100 && local.closed.length === 0; i++) yield* realSleep(10)
        expect(local.closed).toHaveLength(1)
      }),
    10_000
  )

  it.scoped("reports a refused connection as connection_failed, never the raw error", () =>
    Effect.gen(function* () {
      const local = yield* listener(() => undefined)
      const port = local.port
      local.close()
      const exit = yield* Effect.exit(
        get(`http://127.0.0.1:${port}/`).pipe(Effect.provide(client("127.0.0.1")))
      )
      expect(categoryOf(exit)).toBe("connection_failed")
    })
  )
})
