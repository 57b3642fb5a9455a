import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, FastCheck } from "effect"
import {
  maxJsonBytes,
  maxJsonDepth,
  nestingDepth
} from "@voice-agent-platform/contract/middleware/BodyLimits.js"
import * as StorableText from "@voice-agent-platform/contract/middleware/StorableText.js"
import { hasUnstorableText } from "@voice-agent-platform/contract/middleware/StorableText.js"
import { json, organization, rawClient, send, TestServer } from "../support/TestServer.js"

const nested = (levels: number): unknown => {
  let value: unknown = "leaf"
  for (let i = 0; i < levels; i++) value = { next: value }
  return value
}

describe("body limits and awkward input", () => {
  it("measures JSON nesting outside strings", () => {
    expect(nestingDepth('{"a":[1,{"b":2}]}')).toBe(3)
    expect(nestingDepth('{"a":"[[[[{{{{"}')).toBe(1)
    expect(nestingDepth('{"a":"\\"[["}')).toBe(1)
    expect(nestingDepth("")).toBe(0)
  })

  it.prop(
    "agrees with the structure of any JSON value",
    [FastCheck.jsonValue({ maxDepth: 6 })],
    ([value]) => {
      const depthOf = (v: unknown): number =>
        typeof v === "object" && v !== null ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0
      expect(nestingDepth(JSON.stringify(value))).toBe(depthOf(value))
    }
  )

  it("finds text no database can store: NUL and unpaired surrogates, in values and keys, at any depth", () => {
    expect(hasUnstorableText({ a: ["fine", { b: "also fine 😀" }] })).toBe(false)
    expect(hasUnstorableText({ a: ["x", { b: "nul \u0000 here" }] })).toBe(true)
    expect(hasUnstorableText({ ["key\u0000"]: 1 })).toBe(true)
    expect(hasUnstorableText(["\ud800"])).toBe(true)
    expect(hasUnstorableText(["a\udc00b"])).toBe(true)
    expect(hasUnstorableText(["\ud83d\ude00"])).toBe(false)
    expect(hasUnstorableText(undefined)).toBe(false)
  })

  it.effect("refuses a body with NUL or an unpaired surrogate with a 422 at body, and stores nothing", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      for (const name of ['"bad \\u0000 name"', '"half \\ud800 a pair"']) {
        const refused = yield* send(
          client,
          HttpClientRequest.post("/api/v1/agents/from-script").pipe(
            HttpClientRequest.bodyText(`{"agent": {"greeting": ${name}}}`, "application/json")
          )
        )
        expect(refused.status).toBe(422)
        expect(refused.body).toEqual({
          detail: [
            {
              loc: ["body"],
              msg: "Text must not contain the NUL character (U+0000) or an unpaired surrogate",
              type: "value_error"
            }
          ]
        })
      }
      // an escaped backslash followed by "u0000" is ordinary text
      const literal = yield* send(
        client,
        HttpClientRequest.post("/api/v1/agents/from-script").pipe(
          HttpClientRequest.bodyText('{"agent": {"greeting": "C:\\\\u0000 is a path"}}', "application/json")
        )
      )
      expect(literal.status).toBe(200)
      const agents = yield* send(client, HttpClientRequest.get("/api/v1/agents"))
      expect((agents.body as { total_count: number }).total_count).toBe(1)
    }).pipe(Effect.provide(TestServer))
  )

  it.effect("refuses an encoded NUL in the path or the query with a 422 there, never a 500", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      for (const [url, part] of [
        ["/api/v1/integrations/abc%00def", "path"],
        ["/api/v1/tools/x%00", "path"],
        ["/api/v1/agents?status=active%00", "query"]
      ] as const) {
        const refused = yield* send(client, HttpClientRequest.get(url))
        expect(refused.status).toBe(422)
        expect(refused.body).toEqual({
          detail: [{ loc: [part], msg: StorableText.message, type: "value_error" }]
        })
      }
    }).pipe(Effect.provide(TestServer))
  )

  it.effect("refuses too deep bodies with a 422 at body and too large ones with a 413, never a 500", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const deep = yield* send(
        client,
        HttpClientRequest.post("/api/v1/tools").pipe(
          HttpClientRequest.bodyText("[".repeat(100_000) + "]".repeat(100_000), "application/json")
        )
      )
      expect(deep.status).toBe(422)
      expect(deep.body).toMatchObject({
        detail: [{ loc: ["body"], msg: `JSON must not nest deeper than ${maxJsonDepth} levels` }]
      })
      const large = yield* send(client, json("POST", "/api/v1/tools", { name: "x".repeat(2 * 1024 * 1024) }))
      expect(large.status).toBe(413)
      expect(large.body).toEqual({ detail: `The body must be at most ${maxJsonBytes} bytes` })
    }).pipe(Effect.provide(TestServer))
  )

  it.effect("refuses free-form objects nested deeper than 32 levels, and stores nothing", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const agent = (yield* send(
        client,
        json("POST", "/api/v1/agents/from-script", { agent: { greeting: "Hi" } })
      )).body as {
        public_id: string
      }
      const created = yield* send(
        client,
        json("POST", `/api/v1/agents/${agent.public_id}/conversations`, {
          mode: "chat",
          initial_context: nested(40)
        })
      )
      expect(created.status).toBe(422)
      expect(created.body).toMatchObject({ detail: [{ loc: ["body", "initial_context"] }] })
      const list = yield* send(
        client,
        HttpClientRequest.get(`/api/v1/agents/${agent.public_id}/conversations`)
      )
      expect(list.status).toBe(200)
      expect((list.body as { total_count: number }).total_count).toBe(0)
      const connection = yield* send(
        client,
        json("POST", "/api/v1/integrations", { provider: "hubspot", name: "CRM", config: nested(40) })
      )
      expect(connection.status).toBe(422)
      expect((yield* send(client, HttpClientRequest.get("/api/v1/integrations"))).status).toBe(200)
    }).pipe(Effect.provide(TestServer))
  )

  it.effect("answers a clear 415 for a body that is not labelled JSON, and ids have one spelling", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const form = yield* send(
        client,
        HttpClientRequest.post("/api/v1/agents/from-script").pipe(
          HttpClientRequest.bodyText(
            JSON.stringify({ agent: { greeting: "Hi" } }),
            "application/x-www-form-urlencoded"
          )
        )
      )
      expect(form.status).toBe(415)
      expect(form.body).toEqual({
        detail:
          "This operation takes application/json (or application/<type>+json), not application/x-www-form-urlencoded"
      })
      for (const spelling of ["0x10", "1e3", "%20%2010", "010"]) {
        const response = yield* send(client, HttpClientRequest.get(`/api/v1/phone-numbers/${spelling}`))
        expect(response.status, spelling).toBe(422)
      }
      expect((yield* send(client, HttpClientRequest.get("/api/v1/agents?limit=1e1"))).status).toBe(422)
    }).pipe(Effect.provide(TestServer))
  )
})
