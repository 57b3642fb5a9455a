// A bare `@effect/platform` app on Node's HTTP server, answering `BODY` as JSON at every path: the cost
// of the platform's own request handling (NodeHttpServer, HttpApp, a fiber per request), nothing of the
// engine. Used by bench/http-pipeline.ts. Listens on `PORT` at 127.0.0.1.
import { HttpRouter, HttpServer, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Layer } from "effect"
import { createServer } from "node:http"

const body = new TextEncoder().encode(process.env.BODY ?? "{}")
const answer = HttpServerResponse.uint8Array(body, { contentType: "application/json" })

const app = HttpRouter.empty.pipe(HttpRouter.get("*", answer), HttpServer.serve())

NodeRuntime.runMain(
  Layer.launch(
    app.pipe(
      Layer.provide(NodeHttpServer.layer(createServer, { port: Number(process.env.PORT), host: "127.0.0.1" }))
    )
  )
)
