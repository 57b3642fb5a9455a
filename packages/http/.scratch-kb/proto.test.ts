import {
  HttpApi,
  HttpApiBuilder,
  HttpApiEndpoint,
  HttpApiGroup,
  HttpApiSchema,
  HttpClient,
  HttpClientRequest,
  Multipart
} from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Schema, Stream } from "effect"

const Upload = HttpApiSchema.Multipart(
  Schema.Struct({ file: Multipart.SingleFileSchema, note: Schema.optional(Schema.String) })
)
const UploadS = HttpApiSchema.MultipartStream(
  Schema.Struct({ file: Multipart.SingleFileSchema, note: Schema.optional(Schema.String) })
)
class G extends HttpApiGroup.make("g")
  .add(HttpApiEndpoint.post("up", "/up").setPayload(Upload).addSuccess(Schema.Unknown))
  .add(HttpApiEndpoint.post("ups", "/ups").setPayload(UploadS).addSuccess(Schema.Unknown)) {}
class A extends HttpApi.make("a").add(G) {}
const H = HttpApiBuilder.group(A, "g", (h) =>
  h
    .handle("up", ({ payload }) =>
      Effect.succeed({
        name: payload.file.name,
        path: payload.file.path,
        ct: payload.file.contentType,
        note: payload.note ?? null
      })
    )
    .handle("ups", ({ payload }) =>
      Stream.runCollect(payload).pipe(
        Effect.flatMap((parts) =>
          Effect.forEach(parts, (p) =>
            p._tag === "File"
              ? Effect.map(p.contentEffect, (b) => ({
                  k: p.key,
                  name: p.name,
                  ct: p.contentType,
                  n: b.length
                }))
              : Effect.succeed({ k: p.key, v: p.value, ct: p.contentType })
          )
        ),
        Effect.catchAll((e) =>
          Effect.succeed({ err: String(e), tag: (e as any)._tag, reason: (e as any).reason })
        )
      )
    )
)
const Server = HttpApiBuilder.serve().pipe(
  Layer.provide(HttpApiBuilder.api(A).pipe(Layer.provide(H))),
  Layer.provideMerge(NodeHttpServer.layerTest)
)

const go = (path: string, fd: FormData | string) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const req =
      typeof fd === "string"
        ? HttpClientRequest.post(path).pipe(HttpClientRequest.bodyText(fd, "application/json"))
        : HttpClientRequest.post(path).pipe(HttpClientRequest.bodyFormData(fd))
    const res = yield* client.execute(req)
    return { status: res.status, text: yield* res.text }
  }).pipe(Effect.scoped)

describe("proto", () => {
  it.effect("multipart", () =>
    Effect.gen(function* () {
      const fd = new FormData()
      fd.append("file", new Blob(["hello"], { type: "text/plain" }), "a.txt")
      fd.append("note", "x")
      console.log("ok", yield* go("/up", fd))
      const fd2 = new FormData()
      fd2.append("note", "x")
      console.log("missing", yield* go("/up", fd2))
      const fd3 = new FormData()
      fd3.append("file", "text value")
      console.log("text as file", yield* go("/up", fd3))
      console.log("json", yield* go("/up", "{}"))
      const fd4 = new FormData()
      fd4.append("file", new Blob(["hello"]), "a.txt")
      fd4.append("meta", new Blob(['{"a":1}'], { type: "application/json" }))
      console.log("stream", yield* go("/ups", fd4))
      console.log("stream json", yield* go("/ups", "{}"))
    }).pipe(Effect.provide(Server))
  )
})
