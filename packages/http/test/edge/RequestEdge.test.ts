import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import type { RawBody } from "../support/RawHttp.js"
import { port } from "../support/RawHttp.js"
import { organization, TestServer } from "../support/TestServer.js"
import { MB, send, text } from "../support/RequestEdgeFixtures.js"

// The garbage collector, to tell memory still held from garbage not yet collected (Node 24 collects the
// buffers of a body read and dropped later than Node 20 did).
setFlagsFromString("--expose-gc")

const collectGarbage = runInNewContext("gc") as () => void

/**
 * The largest rise of the process's live heap and buffers while `run` runs, sampled every 10 ms: a sample
 * more than 16 MB above the baseline is taken again after a garbage collection, so a body held in memory
 * counts and one read and dropped does not.
 */
const peakMemoryRise = async <A>(run: () => Promise<A>): Promise<{ result: A; rise: number }> => {
  const used = () => {
    const memory = process.memoryUsage()
    return memory.heapUsed + memory.arrayBuffers
  }
  collectGarbage()
  const baseline = used()
  const live = () => {
    if (used() - baseline <= 16 * MB) return used()
    collectGarbage()
    return used()
  }
  let peak = baseline
  const sampler = setInterval(() => (peak = Math.max(peak, live())), 10)
  try {
    const result = await run()
    peak = Math.max(peak, live())
    return { result, rise: peak - baseline }
  } finally {
    clearInterval(sampler)
  }
}

describe("the request edge", () => {
  it.effect(
    "point 1: a 10 MB audio body to a JSON operation is a 415 before it is read, memory untouched",
    () =>
      Effect.gen(function* () {
        const server = yield* port
        const { apiKey } = yield* organization()
        const { result, rise } = yield* Effect.promise(() =>
          peakMemoryRise(() =>
            send(
              server,
              "POST",
              "/api/v1/agents/from-script",
              { "X-API-Key": apiKey, "Content-Type": "audio/wav" },
              { totalBytes: 10 * MB, chunked: false }
            )
          )
        )
        expect(result.status).toBe(415)
        expect(result.body).toEqual({
          detail: "This operation takes application/json (or application/<type>+json), not audio/wav"
        })
        expect(result.bytesSentBeforeAnswer).toBeLessThan(10 * MB)
        expect(rise).toBeLessThan(5 * MB)
        // the server is still answering
        const health = yield* Effect.promise(() => send(server, "GET", "/health", {}))
        expect(health.status).toBe(200)
      }).pipe(Effect.provide(TestServer))
  )

  it.effect(
    "point 2: octet-stream, XML and every other non-JSON type get a prompt 415; JSON types are read once",
    () =>
      Effect.gen(function* () {
        const server = yield* port
        const { apiKey } = yield* organization()
        const payload = text(JSON.stringify({ agent: { greeting: "Hi" } }))
        for (const contentType of [
          "application/octet-stream",
          "application/xml",
          "text/plain",
          "image/png",
          "audio/mpeg",
          "*/*",
          "json",
          "multipart/mixed; boundary=x",
          "application/x-www-form-urlencoded",
          "application/jsonp"
        ]) {
          const refused = yield* Effect.promise(() =>
            send(
              server,
              "POST",
              "/api/v1/agents/from-script",
              { "X-API-Key": apiKey, "Content-Type": contentType },
              payload
            )
          )
          expect(refused.status, contentType).toBe(415)
          expect(typeof (refused.body as { detail: unknown }).detail, contentType).toBe("string")
        }
        for (const contentType of [
          "application/json",
          "application/json; charset=utf-8",
          "Application/JSON",
          "application/vnd.api+json",
          undefined
        ]) {
          const headers: Record<string, string> = { "X-API-Key": apiKey }
          if (contentType !== undefined) headers["Content-Type"] = contentType
          const created = yield* Effect.promise(() =>
            send(server, "POST", "/api/v1/agents/from-script", headers, payload)
          )
          expect(created.status, String(contentType)).toBe(200)
        }
        // a body the platform reads again after a decode failure is the one already read
        const invalid = yield* Effect.promise(() =>
          send(
            server,
            "POST",
            "/api/v1/agents/from-script",
            { "X-API-Key": apiKey, "Content-Type": "application/json" },
            text(JSON.stringify({ agent: { greeting: 42 } }))
          )
        )
        expect(invalid.status).toBe(422)
        expect(invalid.body).toMatchObject({ detail: [{ loc: ["body", "agent", "greeting"] }] })
      }).pipe(Effect.provide(TestServer))
  )

  it.effect("point 3: without a valid key or token, a 150 MB chunked body is a 401 before it is read", () =>
    Effect.gen(function* () {
      const server = yield* port
      const hostile: RawBody = { totalBytes: 150 * MB, chunked: true, keepSendingAfterAnswer: true }
      const { result, rise } = yield* Effect.promise(() =>
        peakMemoryRise(() =>
          send(server, "POST", "/api/v1/agents/from-script", { "Content-Type": "application/json" }, hostile)
        )
      )
      expect(result.status).toBe(401)
      expect(result.body).toEqual({ detail: "Invalid API key" })
      expect(result.bytesSentBeforeAnswer).toBeLessThan(50 * MB)
      expect(rise).toBeLessThan(50 * MB)
      // 401 comes before the media type and the size are looked at, for every kind of credential
      for (const [method, target, headers] of [
        ["POST", "/api/v1/agents/from-script", { "X-API-Key": "vap_wrong", "Content-Type": "audio/wav" }],
        [
          "POST",
          "/admin/v1/organizations",
          { Authorization: "Bearer wrong-token-0123456789", "Content-Type": "application/json" }
        ],
        [
          "PUT",
          "/runtime/v1/runs/1/recording",
          { Authorization: "Bearer wrong-token-0123456789", "Content-Type": "audio/wav" }
        ]
      ] as const) {
        const refused = yield* Effect.promise(() =>
          send(server, method, target, headers, { totalBytes: 20 * MB, chunked: true })
        )
        expect(refused.status, target).toBe(401)
        expect(refused.bytesSentBeforeAnswer, target).toBeLessThan(20 * MB)
      }
    }).pipe(Effect.provide(TestServer))
  )

  it.effect(
    "point 15: a dot segment as an id and a raw # in the target are answered 4xx in JSON, never 500",
    () =>
      Effect.gen(function* () {
        const server = yield* port
        const { apiKey } = yield* organization()
        for (const [target, status] of [
          ["/api/v1/phone-numbers/.", 422],
          ["/api/v1/phone-numbers/%2e", 422],
          ["/api/v1/phone-numbers/..", 422],
          ["/api/v1/phone-numbers/%2e%2e", 422],
          ["/api/v1/phone-numbers/%2E", 422],
          ["/api/v1/agents/./conversations", 404],
          ["/api/v1/agents/%2e/conversations", 404],
          ["/api/v1/agents/../conversations", 404],
          // a raw # inside the query: the router reads it as part of a value, and so does the 422
          ["/api/v1/agents?page=1#&limit=abc", 422],
          ["/api/v1/agents?limit=1#x&page=0", 422],
          ["/api/v1/agents?x=#&limit=0", 422],
          // before the query it ends the path, and what follows is not read
          ["/api/v1/phone-numbers/abc#?limit=1", 422],
          ["/api/v1/phone-numbers/1#frag?limit=1", 404]
        ] as const) {
          const answer = yield* Effect.promise(() => send(server, "GET", target, { "X-API-Key": apiKey }))
          expect(answer.status, target).toBe(status)
          expect((answer.body as { detail?: unknown }).detail, target).toBeDefined()
        }
      }).pipe(Effect.provide(TestServer))
  )

  it.effect("a body sent to an operation that takes none is ignored, unread, whatever its type", () =>
    Effect.gen(function* () {
      const server = yield* port
      const { apiKey } = yield* organization()
      const { result, rise } = yield* Effect.promise(() =>
        peakMemoryRise(() =>
          send(
            server,
            "DELETE",
            "/api/v1/tools/00000000-0000-0000-0000-000000000000",
            { "X-API-Key": apiKey, "Content-Type": "application/octet-stream" },
            { totalBytes: 20 * MB, chunked: true }
          )
        )
      )
      expect(result.status).toBe(404)
      expect(result.bytesSentBeforeAnswer).toBeLessThan(20 * MB)
      expect(rise).toBeLessThan(10 * MB)
    }).pipe(Effect.provide(TestServer))
  )
})
