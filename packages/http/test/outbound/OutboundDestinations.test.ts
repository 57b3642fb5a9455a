import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { AllowList, InMemory, OutboundPolicy } from "@voice-agent-platform/core"
import { Effect, Either } from "effect"
import { json, organization, rawClient, send, serverOver } from "../support/TestServer.js"

type Body = Record<string, any>

/** The issue's spellings of internal addresses, and a few more. */
const internalUrls = [
  "http://127.0.0.1:8080/in",
  "http://2130706433/in",
  "http://0x7f.1/in",
  "http://0177.0.0.1/in",
  "http://localhost:3000/in",
  "http://169.254.169.254/latest/meta-data",
  "http://[::1]/in",
  "http://[::ffff:127.0.0.1]/in",
  "https://10.0.0.8/in",
  "https://100.64.0.1/in",
  "https://[fd00::1]/in"
]

const issues = (body: unknown) =>
  (body as { detail: Array<{ loc: Array<string | number>; msg: string; type: string }> }).detail

/** The API with no outbound allow-list: what a default `npm start` enforces. */
const refusingServer = serverOver(InMemory.layer, OutboundPolicy.layerDefault)
/** The API with an operator's allow-list. */
const allowingServer = serverOver(
  InMemory.layer,
  OutboundPolicy.layer(Either.getOrThrow(AllowList.parse("127.0.0.1,10.0.0.0/8,crm.internal")))
)

const httpTool = (url: string) => ({
  name: "Lookup",
  definition: { type: "http_api", config: { method: "GET", url } }
})

describe("outbound destinations in URLs over HTTP", () => {
  it.effect("a webhook URL naming an internal address is a 422 at body.url, on create and on update", () =>
    Effect.gen(function* () {
      const client = yield* rawClient((yield* organization()).apiKey)
      for (const url of internalUrls) {
        const refused = yield* send(client, json("POST", "/api/v1/webhooks", { url }))
        expect(refused.status, url).toBe(422)
        expect(issues(refused.body), url).toEqual([
          {
            loc: ["body", "url"],
            msg: expect.stringMatching(/^must not point to a .+ address$/),
            type: "value_error.destination_not_allowed"
          }
        ])
      }
      const created = yield* send(
        client,
        json("POST", "/api/v1/webhooks", { url: "https://crm.example.com/in" })
      )
      expect(created.status).toBe(200)
      const id = (created.body as Body).id as string
      const moved = yield* send(client, json("PATCH", `/api/v1/webhooks/${id}`, { url: "http://0x7f.1/in" }))
      expect(moved.status).toBe(422)
      expect(issues(moved.body).map((i) => i.loc)).toEqual([["body", "url"]])
      const kept = yield* send(client, HttpClientRequest.get(`/api/v1/webhooks/${id}`))
      expect((kept.body as Body).url).toBe("https://crm.example.com/in")
      expect((yield* send(client, HttpClientRequest.get("/api/v1/webhooks"))).body).toMatchObject({
        total_count: 1
      })
    }).pipe(Effect.provide(refusingServer))
  )

  it.effect(
    "an http_api tool URL naming an internal address is a 422 at its field, on create and on update",
    () =>
      Effect.gen(function* () {
        const client = yield* rawClient((yield* organization()).apiKey)
        for (const url of internalUrls) {
          const refused = yield* send(client, json("POST", "/api/v1/tools", httpTool(url)))
          expect(refused.status, url).toBe(422)
          expect(
            issues(refused.body).map((i) => i.loc),
            url
          ).toEqual([["body", "definition", "config", "url"]])
        }
        const created = yield* send(
          client,
          json("POST", "/api/v1/tools", httpTool("https://crm.example.com/x"))
        )
        expect(created.status).toBe(200)
        const id = (created.body as Body).tool_uuid as string
        const moved = yield* send(
          client,
          json("PATCH", `/api/v1/tools/${id}`, {
            definition: httpTool("http://[::ffff:127.0.0.1]/x").definition
          })
        )
        expect(moved.status).toBe(422)
        expect(issues(moved.body).map((i) => i.loc)).toEqual([["body", "definition", "config", "url"]])
        // other tool types carry no URL and pass
        const endCall = yield* send(
          client,
          json("POST", "/api/v1/tools", { name: "Bye", definition: { type: "end_call", config: {} } })
        )
        expect(endCall.status).toBe(200)
      }).pipe(Effect.provide(refusingServer))
  )

  it.effect("OUTBOUND_ALLOW_HOSTS lets the named hosts, addresses and ranges through, and nothing else", () =>
    Effect.gen(function* () {
      const client = yield* rawClient((yield* organization()).apiKey)
      for (const url of [
        "http://127.0.0.1:8080/in",
        "http://2130706433/in",
        "https://10.1.2.3/in",
        "http://crm.internal/in"
      ]) {
        expect((yield* send(client, json("POST", "/api/v1/webhooks", { url }))).status, url).toBe(200)
        expect((yield* send(client, json("POST", "/api/v1/tools", httpTool(url)))).status, url).toBe(200)
      }
      for (const url of ["http://127.0.0.2/in", "http://192.168.1.1/in", "http://localhost/in"]) {
        expect((yield* send(client, json("POST", "/api/v1/webhooks", { url }))).status, url).toBe(422)
      }
    }).pipe(Effect.provide(allowingServer))
  )
})
