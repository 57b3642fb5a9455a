import {
  HttpApi,
  HttpApiBuilder,
  HttpApiEndpoint,
  HttpApiGroup,
  HttpApiMiddleware,
  HttpApiSchema,
  HttpApiSecurity,
  HttpApp,
  HttpClient,
  HttpClientRequest,
  HttpServer,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer, Redacted, Schedule, Schema } from "effect"
import * as Http from "node:http"
import * as CapturedGroups from "../../src/direct/CapturedGroups.js"
import * as DirectRoutes from "../../src/direct/DirectRoutes.js"
import { NodeRequest } from "../../src/direct/NodeRequest.js"
import { EdgeRequest } from "../../src/edge/EdgeRequest.js"
import * as ErrorResponses from "../../src/middleware/ErrorResponses.js"
import * as HardenedNodeServer from "../../src/server/HardenedNodeServer.js"
import { Unauthorized } from "@voice-agent-platform/contract/errors/ApiErrors.js"
import { send } from "../support/TestServer.js"

class Caller extends Context.Tag("test/Caller")<Caller, string>() {}

class KeyCheck extends HttpApiMiddleware.Tag<KeyCheck>()("KeyCheck", {
  failure: Unauthorized,
  provides: Caller,
  security: { key: HttpApiSecurity.apiKey({ in: "header", key: "X-Key" }) }
}) {}

/** What a probe answers: the path it was given, its query, and whether the direct routes answered it. */
const Probe = Schema.Struct({
  id: Schema.Int,
  tags: Schema.Array(Schema.String),
  direct: Schema.Boolean,
  caller: Schema.String
})

class Probes extends HttpApiGroup.make("probes")
  .add(
    HttpApiEndpoint.get("get", "/probes/:id")
      .setPath(Schema.Struct({ id: Schema.NumberFromString.pipe(Schema.int()) }))
      .setUrlParams(Schema.Struct({ tag: Schema.optional(Schema.Array(Schema.String)) }))
      .addSuccess(Probe)
  )
  .add(HttpApiEndpoint.get("raw", "/raw").addSuccess(Schema.String))
  .add(HttpApiEndpoint.get("nothing", "/nothing").addSuccess(HttpApiSchema.NoContent))
  .add(HttpApiEndpoint.get("hook", "/hook").addSuccess(Schema.String))
  .add(HttpApiEndpoint.get("slow", "/slow").addSuccess(Schema.String))
  .add(
    HttpApiEndpoint.post("create", "/probes")
      .setPayload(Schema.Struct({ id: Schema.Int }))
      .addSuccess(Probe)
  )
  .add(
    HttpApiEndpoint.patch("rename", "/probes/:id")
      .setPath(Schema.Struct({ id: Schema.NumberFromString.pipe(Schema.int()) }))
      .setPayload(Schema.Struct({ tags: Schema.Array(Schema.String) }))
      .setHeaders(Schema.Struct({ "x-note": Schema.optional(Schema.NonEmptyString) }))
      .addSuccess(Probe)
  )
  .add(
    HttpApiEndpoint.del("remove", "/probes/:id")
      .setPath(Schema.Struct({ id: Schema.NumberFromString.pipe(Schema.int()) }))
      .addSuccess(HttpApiSchema.NoContent)
  )
  .add(
    HttpApiEndpoint.post("upload", "/uploads")
      .setPayload(HttpApiSchema.MultipartStream(Schema.Struct({})))
      .addSuccess(Probe)
  )
  .middleware(KeyCheck) {}

class ProbeApi extends HttpApi.make("probe").add(Probes) {}

/** Whether the handler was given the direct routes' request (inside the response shaping's edge view). */
const isDirect = (request: HttpServerRequest.HttpServerRequest) =>
  request instanceof EdgeRequest && request.inner instanceof NodeRequest

/** How often the slow probe's handler started, and how often it was interrupted. */
const slow = { started: 0, interrupted: 0 }

/** How many requests' scopes closed (the remove probe adds a finalizer to its request's). */
const scopes = { closed: 0 }

const ProbesLive = CapturedGroups.group(ProbeApi, "probes", (handlers) =>
  handlers
    .handle("get", ({ path, urlParams, request }) =>
      Effect.map(Caller, (caller) => ({
        id: path.id,
        tags: urlParams.tag ?? [],
        direct: isDirect(request),
        caller
      }))
    )
    .handle("raw", () => Effect.succeed(HttpServerResponse.text("plain", { headers: { "x-probe": "raw" } })))
    .handle("nothing", () => Effect.void)
    // a pre-response handler that fails: the failure is past every API middleware
    .handle("slow", () =>
      Effect.zipRight(
        Effect.sync(() => slow.started++),
        Effect.onInterrupt(Effect.never, () => Effect.sync(() => slow.interrupted++))
      )
    )
    .handle("hook", () =>
      Effect.as(
        HttpApp.appendPreResponseHandler(() => Effect.die(new Error("the hook failed"))),
        "never sent"
      )
    )
    .handle("create", ({ payload, request }) =>
      Effect.map(Caller, (caller) => ({ id: payload.id, tags: [], direct: isDirect(request), caller }))
    )
    .handle("rename", ({ path, payload, request }) =>
      Effect.map(Caller, (caller) => ({ id: path.id, tags: payload.tags, direct: isDirect(request), caller }))
    )
    .handle("remove", () => Effect.addFinalizer(() => Effect.sync(() => scopes.closed++)))
    .handle("upload", ({ request }) =>
      Effect.map(Caller, (caller) => ({ id: 0, tags: [], direct: isDirect(request), caller }))
    )
)

const KeyCheckLive = Layer.succeed(
  KeyCheck,
  KeyCheck.of({
    key: (key) =>
      Redacted.value(key) === "right"
        ? Effect.succeed("the caller")
        : Effect.fail(new Unauthorized({ detail: "bad key" }))
  })
)

const shaped = Effect.succeed((_route: string) => ErrorResponses.make(ProbeApi))

/**
 * The probe API served with the direct routes (or without, `direct: false`), over the hardened Node
 * server, with `middleware` given to `serve` if any.
 */
const server = (direct: boolean, middleware?: (app: HttpApp.Default) => HttpApp.Default) =>
  (middleware === undefined ? HttpApiBuilder.serve() : HttpApiBuilder.serve(middleware)).pipe(
    // the response shaping on the platform's path, as an API middleware (the direct routes get it from `shaped`)
    Layer.provide(ErrorResponses.layer(ProbeApi)),
    Layer.provide(DirectRoutes.layer(ProbeApi, shaped)),
    Layer.provideMerge(
      HttpApiBuilder.api(ProbeApi).pipe(Layer.provide(ProbesLive), Layer.provide(KeyCheckLive))
    ),
    Layer.provideMerge(
      HardenedNodeServer.layerTest(undefined, { narrowRequestContext: true, directRoutes: direct })
    )
  )

const get = (url: string, key = "right") =>
  HttpClientRequest.get(url).pipe(HttpClientRequest.setHeader("x-key", key))

/** `request` with the right key and `body`, as text of the media type `type`. */
const write = (request: HttpClientRequest.HttpClientRequest, body: string, type = "application/json") =>
  request.pipe(HttpClientRequest.setHeader("x-key", "right"), HttpClientRequest.bodyText(body, type))

describe("the direct routes", () => {
  it.live(
    "answer a GET without a body: its security, path and query decoded, the handler's value encoded",
    () =>
      Effect.gen(function* () {
        const client = yield* HttpClient.HttpClient
        const ok = yield* send(client, get("/probes/7?tag=a"))
        expect(ok.status).toBe(200)
        // a parameter given once is a list where the schema takes a list, as on the platform's path
        expect(ok.body).toEqual({ id: 7, tags: ["a"], direct: true, caller: "the caller" })
        expect(ok.headers["content-type"]).toBe("application/json")
        expect(ok.headers["x-request-id"]).toBeDefined()
        expect((yield* send(client, get("/probes/7?tag=a&tag=b"))).body).toMatchObject({ tags: ["a", "b"] })

        const head = yield* send(
          client,
          HttpClientRequest.head("/probes/7").pipe(HttpClientRequest.setHeader("x-key", "right"))
        )
        expect(head.status).toBe(200)
        expect(head.text).toBe("")

        // the security middleware runs first: a bad key is 401 before the path is looked at
        expect(yield* send(client, get("/probes/x", "wrong"))).toMatchObject({
          status: 401,
          body: { detail: "bad key" }
        })
        const invalid = yield* send(client, get("/probes/x"))
        expect(invalid.status).toBe(422)
        expect(JSON.stringify(invalid.body)).toContain("id")

        // a handler answering a response of its own, or nothing
        const raw = yield* send(client, get("/raw"))
        expect(raw).toMatchObject({ status: 200, text: "plain" })
        expect(raw.headers["x-probe"]).toBe("raw")
        expect((yield* send(client, get("/nothing"))).status).toBe(204)
        // a failure past the API middlewares is still answered (500), never left hanging
        const hooked = yield* send(client, get("/hook")).pipe(Effect.timeout("10 seconds"))
        expect(hooked).toMatchObject({ status: 500, body: { detail: "Internal server error" } })
      }).pipe(Effect.provide(server(true)))
  )

  it.live(
    "answer a write: its payload read through the edge and decoded after the path, before the headers",
    () =>
      Effect.gen(function* () {
        const client = yield* HttpClient.HttpClient
        const post = (url: string, body: unknown, key = "right") =>
          HttpClientRequest.post(url).pipe(
            HttpClientRequest.setHeader("x-key", key),
            HttpClientRequest.bodyUnsafeJson(body)
          )
        expect(yield* send(client, post("/probes", { id: 3 }))).toMatchObject({
          status: 200,
          body: { id: 3, tags: [], direct: true, caller: "the caller" }
        })
        const renamed = yield* send(
          client,
          write(HttpClientRequest.patch("/probes/4"), JSON.stringify({ tags: ["a", "b"] }))
        )
        expect(renamed).toMatchObject({ status: 200, body: { id: 4, tags: ["a", "b"], direct: true } })
        // the security first, then the payload: a bad key is 401 whatever the body
        expect((yield* send(client, post("/probes", { id: "x" }, "wrong"))).status).toBe(401)
        const invalid = yield* send(client, post("/probes", { id: "x" }))
        expect(invalid.status).toBe(422)
        expect(JSON.stringify(invalid.body)).toContain("id")
        expect((yield* send(client, write(HttpClientRequest.post("/probes"), "{"))).status).toBe(422)
        const wrongType = write(HttpClientRequest.post("/probes"), "id=3", "text/plain")
        expect((yield* send(client, wrongType)).status).toBe(415)
        const tooLarge = yield* send(client, post("/probes", { id: 3, pad: "x".repeat(1024 * 1024) }))
        expect(tooLarge.status).toBe(413)
        // a delete: nothing to read, its own scope closed once it answered
        const closed = scopes.closed
        const removed = yield* send(
          client,
          HttpClientRequest.del("/probes/4").pipe(HttpClientRequest.setHeader("x-key", "right"))
        )
        expect(removed.status).toBe(204)
        expect(scopes.closed).toBe(closed + 1)
        // the connection carries on after every refusal
        expect((yield* send(client, post("/probes", { id: 5 }))).body).toMatchObject({ id: 5, direct: true })
      }).pipe(Effect.provide(server(true)))
  )

  it.live("leave a read with a body, a multipart write and unknown routes to the platform's path", () =>
    Effect.gen(function* () {
      const client = yield* HttpClient.HttpClient
      const withBody = yield* send(client, get("/probes/7").pipe(HttpClientRequest.bodyText("x")))
      expect(withBody.body).toMatchObject({ id: 7, direct: false })
      const form = new FormData()
      form.append("note", "x")
      const uploaded = yield* send(
        client,
        HttpClientRequest.post("/uploads").pipe(
          HttpClientRequest.setHeader("x-key", "right"),
          HttpClientRequest.bodyFormData(form)
        )
      )
      expect(uploaded.body).toMatchObject({ id: 0, direct: false })
      expect((yield* send(client, get("/no-such-route"))).status).toBe(404)
      // a target the matcher cannot decode is answered (by either path), and the server goes on
      for (const target of ["/probes/%E0%A4%A", "/probes/%", "/probes/7?tag=%ZZ"]) {
        expect((yield* send(client, get(target))).status).toBeLessThan(500)
      }
      expect((yield* send(client, get("/probes/7"))).status).toBe(200)
    }).pipe(Effect.provide(server(true)))
  )

  it.live("are not taken when the server is given a middleware of its own, which they would skip", () => {
    let seen = 0
    return Effect.gen(function* () {
      const client = yield* HttpClient.HttpClient
      expect((yield* send(client, get("/probes/7"))).body).toMatchObject({ id: 7, direct: false })
      expect(seen).toBe(1)
    }).pipe(
      Effect.provide(
        server(true, (app) =>
          Effect.zipRight(
            Effect.sync(() => seen++),
            app
          )
        )
      )
    )
  })

  it.live("interrupt a read's handler when its client goes away, and go on serving", () =>
    Effect.gen(function* () {
      const server = yield* HttpServer.HttpServer
      const port = (server.address as HttpServer.TcpAddress).port
      const before = { ...slow }
      const abandoned = Http.request({
        host: "127.0.0.1",
        port,
        path: "/slow",
        headers: { "x-key": "right" }
      })
      abandoned.on("error", () => {})
      abandoned.end()
      const until = (done: () => boolean) =>
        Effect.repeat(Effect.sync(done), {
          until: (ok) => ok,
          schedule: Schedule.spaced("20 millis")
        }).pipe(Effect.timeout("10 seconds"))
      yield* until(() => slow.started > before.started)
      abandoned.destroy()
      yield* until(() => slow.interrupted > before.interrupted)
      const client = yield* HttpClient.HttpClient
      expect((yield* send(client, get("/probes/7"))).status).toBe(200)
    }).pipe(Effect.provide(server(true)))
  )

  it.live("answer as the platform's path does", () =>
    Effect.gen(function* () {
      const requests = [
        get("/probes/7?tag=a"),
        get("/probes/x"),
        get("/probes/7", "wrong"),
        get("/probes/7?tag=a&tag=b"),
        get("/raw"),
        get("/nothing"),
        write(HttpClientRequest.post("/probes"), JSON.stringify({ id: 3 })),
        write(HttpClientRequest.post("/probes"), JSON.stringify({ id: 3.5 })),
        write(HttpClientRequest.post("/probes"), "{"),
        write(HttpClientRequest.post("/probes"), ""),
        write(HttpClientRequest.post("/probes"), "id=3", "text/plain"),
        write(HttpClientRequest.post("/probes"), JSON.stringify({ id: 3 }), "application/merge-patch+json"),
        write(HttpClientRequest.patch("/probes/x"), JSON.stringify({ tags: 1 })),
        write(HttpClientRequest.patch("/probes/2"), JSON.stringify({ tags: 1 })),
        write(HttpClientRequest.patch("/probes/2"), JSON.stringify({ tags: [] })).pipe(
          HttpClientRequest.setHeader("x-note", "")
        ),
        write(HttpClientRequest.patch("/probes/2"), JSON.stringify({ tags: ["a"] })),
        HttpClientRequest.del("/probes/2").pipe(HttpClientRequest.setHeader("x-key", "right"))
      ]
      const answers = (direct: boolean) =>
        Effect.gen(function* () {
          const client = yield* HttpClient.HttpClient
          return yield* Effect.forEach(requests, (request) =>
            Effect.map(send(client, request), ({ status, body, headers }) => ({
              status,
              body:
                typeof body === "object" && body !== null && "direct" in body
                  ? { ...body, direct: "?" }
                  : body,
              type: headers["content-type"]
            }))
          )
        }).pipe(Effect.provide(server(direct)))
      expect(yield* answers(true)).toEqual(yield* answers(false))
    })
  )
})
