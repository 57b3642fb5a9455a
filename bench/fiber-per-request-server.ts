// Node's HTTP server running one Effect fiber per request, answering `BODY` as JSON at every path: the
// floor of a request path of the engine's own (a fiber for the request's program, a request-scoped
// FiberRef set and read, a few steps), without the platform's request wrapping, router, scope and
// response conversion that the bare router (bench/bare-platform-server.ts) pays. Used by
// bench/http-pipeline.ts. Listens on `PORT` at 127.0.0.1.
import { Effect, FiberRef, Runtime } from "effect"
import { createServer, type ServerResponse } from "node:http"

const body = Buffer.from(process.env.BODY ?? "{}")
const requestId = FiberRef.unsafeMake("")
const runFork = Runtime.runFork(Runtime.defaultRuntime)

const answer = (id: string, response: ServerResponse) =>
  Effect.gen(function* () {
    yield* FiberRef.set(requestId, id)
    return yield* FiberRef.get(requestId)
  }).pipe(
    Effect.flatMap(() => Effect.sync(() => body)),
    Effect.map((bytes) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": bytes.length })
      response.end(bytes)
    })
  )

let requests = 0
createServer((_request, response) => {
  runFork(answer(String(++requests), response))
}).listen(Number(process.env.PORT), "127.0.0.1")
