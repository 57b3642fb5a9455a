import { HttpApiBuilder, HttpClient, HttpClientRequest } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { BlobStore, DownloadLinks, InMemory, OutboundPolicy } from "@voice-agent-platform/core"
import { Effect, Layer, Logger, Option, Redacted } from "effect"
import * as AppLayer from "../../src/AppLayer.js"
import * as OperatorAuthentication from "../../src/middleware/OperatorAuthentication.js"
import { adminToken, send } from "../support/TestServer.js"

/** Every line the server logs, rendered as logfmt (message, annotations and cause). */
const lines: Array<string> = []
const capture = Logger.replace(
  Logger.defaultLogger,
  Logger.map(Logger.logfmtLogger, (line) => {
    lines.push(line)
  })
)

/** A file store that breaks on every read, so that a valid download link ends in an unhandled error. */
const brokenFiles = Layer.succeed(BlobStore.BlobStore, {
  put: () => Effect.void,
  get: () => Effect.die(new Error("disk on fire")),
  remove: () => Effect.succeed(false)
})

const server = HttpApiBuilder.serve().pipe(
  Layer.provide(AppLayer.layer),
  Layer.provide(brokenFiles),
  Layer.provideMerge(Layer.orDie(DownloadLinks.layer("the log test's link signing secret 0123456789"))),
  Layer.provide(OperatorAuthentication.layerToken(Option.some(Redacted.make(adminToken)))),
  Layer.provide(OutboundPolicy.layerDefault),
  Layer.provideMerge(InMemory.layer),
  Layer.provideMerge(NodeHttpServer.layerTest),
  Layer.provide(capture)
)

describe("what the server logs", () => {
  it.effect("an unhandled error is logged with the request's path, never its query string", () =>
    Effect.gen(function* () {
      const link = yield* DownloadLinks.sign(
        "organizations/1/runs/1/recording.wav",
        new Date(Date.now() + 60_000)
      )
      const query = DownloadLinks.toQuery(link)
      const response = yield* send(
        yield* HttpClient.HttpClient,
        HttpClientRequest.get(`/api/v1/files/download?${query}`)
      )
      expect(response.status).toBe(500)
      const logged = lines.filter((line) => line.includes("Unhandled error"))
      expect(logged).toHaveLength(1)
      expect(logged[0]).toContain("path=/api/v1/files/download")
      expect(logged[0]).not.toContain(link.signature)
      expect(logged[0]).not.toContain("signature=")
      expect(logged[0]).not.toContain("expires=")
    }).pipe(Effect.provide(server))
  )
})
