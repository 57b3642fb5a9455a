import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { maxJsonBytes } from "@voice-agent-platform/contract/middleware/BodyLimits.js"
import { maxUploadBytes } from "@voice-agent-platform/contract/knowledge-base/KnowledgeBaseApi.js"
import { maxRecordingBytes } from "@voice-agent-platform/contract/runtime/RuntimeApi.js"
import type { RawBody } from "./support/RawHttp.js"
import { exchange, port } from "./support/RawHttp.js"
import { createAgent, storeRun } from "./support/RunFixtures.js"
import { organization, rawClient, runtimeToken, TestServer } from "./support/TestServer.js"

const MB = 1024 * 1024

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

const head = (method: string, target: string, headers: Record<string, string | number>) =>
  [
    `${method} ${target} HTTP/1.1`,
    "Host: 127.0.0.1",
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)
  ].join("\r\n")

const send = (
  server: number,
  method: string,
  target: string,
  headers: Record<string, string | number>,
  body?: RawBody
) => {
  const sized =
    body === undefined
      ? headers
      : body instanceof Uint8Array
        ? { ...headers, "Content-Length": body.length }
        : body.chunked
          ? { ...headers, "Transfer-Encoding": "chunked" }
          : { ...headers, "Content-Length": body.totalBytes }
  return exchange(server, head(method, target, sized), body)
}

const text = (value: string) => new TextEncoder().encode(value)

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
    "every body has a limit enforced while it streams: 413 as soon as it is crossed, chunked or not",
    () =>
      Effect.gen(function* () {
        const server = yield* port
        const { apiKey } = yield* organization()
        for (const chunked of [true, false]) {
          const json = yield* Effect.promise(() =>
            send(
              server,
              "POST",
              "/api/v1/agents/from-script",
              { "X-API-Key": apiKey, "Content-Type": "application/json" },
              { totalBytes: 30 * MB, chunked }
            )
          )
          expect(json.status).toBe(413)
          expect(json.body).toEqual({ detail: `The body must be at most ${maxJsonBytes} bytes` })
          expect(json.bytesSentBeforeAnswer).toBeLessThan(30 * MB)
        }
        // the recording upload of a real run: 200 MB, then 413 while it streams (it was a 422)
        const owner = yield* organization()
        const agent = yield* createAgent(yield* rawClient(owner.apiKey))
        const run = yield* storeRun(owner.organization, agent.id)
        const recording = yield* Effect.promise(() =>
          send(
            server,
            "PUT",
            `/runtime/v1/runs/${run.workflow_run_id}/recording`,
            { Authorization: `Bearer ${runtimeToken}`, "Content-Type": "audio/wav" },
            { totalBytes: maxRecordingBytes + 20 * MB, chunked: true }
          )
        )
        expect(recording.status).toBe(413)
        expect(recording.body).toEqual({ detail: `The body must be at most ${maxRecordingBytes} bytes` })
        expect(recording.bytesSentBeforeAnswer).toBeLessThan(maxRecordingBytes + 20 * MB)
        const form = yield* Effect.promise(() =>
          send(
            server,
            "POST",
            "/api/v1/knowledge-base/documents",
            { "X-API-Key": apiKey, "Content-Type": "multipart/form-data; boundary=b" },
            { totalBytes: maxUploadBytes + MB, chunked: true }
          )
        )
        expect(form.status).toBeGreaterThanOrEqual(400)
        expect(form.status).toBeLessThan(500)
      }).pipe(Effect.provide(TestServer))
  )

  it.effect(
    "point 4: multipart only where documented; a malformed form is a 4xx in the documented shape, no temp files",
    () =>
      Effect.gen(function* () {
        const server = yield* port
        const { apiKey } = yield* organization()
        const scratch = mkdtempSync(join(tmpdir(), "edge-multipart-"))
        const previous = process.env.TMPDIR
        process.env.TMPDIR = scratch
        try {
          const form = text(
            '--b\r\nContent-Disposition: form-data; name="file"; filename="x.txt"\r\nContent-Type: text/plain\r\n\r\n' +
              "x".repeat(200_000) +
              "\r\n--b--\r\n"
          )
          for (const target of [
            "/api/v1/agents/from-script",
            "/api/v1/tools",
            "/api/v1/knowledge-base/search"
          ]) {
            const refused = yield* Effect.promise(() =>
              send(
                server,
                "POST",
                target,
                { "X-API-Key": apiKey, "Content-Type": "multipart/form-data; boundary=b" },
                form
              )
            )
            expect(refused.status, target).toBe(415)
            expect(refused.body, target).toEqual({
              detail:
                "This operation takes application/json (or application/<type>+json), not multipart/form-data"
            })
          }
          const upload = (contentType: string, body: RawBody) =>
            Effect.promise(() =>
              send(
                server,
                "POST",
                "/api/v1/knowledge-base/documents",
                { "X-API-Key": apiKey, "Content-Type": contentType },
                body
              )
            )
          const json = yield* upload("application/json", text('{"file": "x"}'))
          expect(json.status).toBe(415)
          expect(json.body).toEqual({
            detail: "This operation takes multipart/form-data, not application/json"
          })
          const part = (name: string, value: string) =>
            `--b\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
          const malformed: Array<[string, string, RawBody]> = [
            ["no boundary", "multipart/form-data", form],
            ["empty boundary", "multipart/form-data; boundary=", form],
            ["boundary over 70 characters", `multipart/form-data; boundary=${"b".repeat(80)}`, form],
            ["another boundary", "multipart/form-data; boundary=other", form],
            ["truncated", "multipart/form-data; boundary=b", form.subarray(0, 1000)],
            [
              "stops inside the closing boundary",
              "multipart/form-data; boundary=b",
              form.subarray(0, form.length - 5)
            ],
            [
              "stops after the closing boundary's name",
              "multipart/form-data; boundary=b",
              form.subarray(0, form.length - 4)
            ],
            ["garbage", "multipart/form-data; boundary=b", text("not a form at all")],
            ["ends between parts", "multipart/form-data; boundary=b", text(part("custom_metadata", "{}"))],
            ["unreadable parameters", "multipart/form-data; boundary=b; =x", form],
            ["empty", "multipart/form-data; boundary=b", new Uint8Array()],
            [
              "many parts",
              "multipart/form-data; boundary=b",
              text(Array.from({ length: 50 }, (_, i) => part(`f${i}`, "v")).join("") + "--b--\r\n")
            ]
          ]
          for (const [name, contentType, body] of malformed) {
            const answer = yield* upload(contentType, body)
            expect(answer.status, name).toBe(422)
            expect(Array.isArray((answer.body as { detail: unknown }).detail), name).toBe(true)
            expect(answer.text, name).not.toContain(scratch)
            expect(answer.text, name).not.toContain(tmpdir())
          }
          // the form as a whole has a limit too: many text fields, each under its own
          const fields = text(
            Array.from({ length: 7 }, (_, i) => part(`f${i}`, "v".repeat(60 * 1024))).join("") + "--b--\r\n"
          )
          expect(fields.length).toBeLessThan(maxUploadBytes)
          const over = yield* upload("multipart/form-data; boundary=b", {
            totalBytes: maxUploadBytes + MB,
            chunked: true,
            prefix: text(
              part("custom_metadata", "{}") +
                '--b\r\nContent-Disposition: form-data; name="source_url"\r\n\r\n'
            )
          })
          expect(over.status).toBe(422)
          expect(over.body).toMatchObject({
            detail: [{ loc: ["body"], type: "value_error.field_too_large" }]
          })
          expect(readdirSync(scratch)).toEqual([])
        } finally {
          if (previous === undefined) delete process.env.TMPDIR
          else process.env.TMPDIR = previous
          rmSync(scratch, { recursive: true, force: true })
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
