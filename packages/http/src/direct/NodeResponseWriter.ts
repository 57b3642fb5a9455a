import type { HttpServerResponse } from "@effect/platform"
import { Cookies } from "@effect/platform"
import { Chunk, Effect, Stream } from "effect"
import type * as Http from "node:http"
import { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"

/** The response's headers with its cookies as `Set-Cookie`. */
const headersOf = (
  response: HttpServerResponse.HttpServerResponse
): Record<string, string | Array<string>> => {
  if (Cookies.isEmpty(response.cookies)) return response.headers
  const headers: Record<string, string | Array<string>> = { ...response.headers }
  const toSet = Cookies.toSetCookieHeaders(response.cookies)
  const given = headers["set-cookie"]
  if (given !== undefined) toSet.push(...(Array.isArray(given) ? given : [given]))
  headers["set-cookie"] = toSet
  return headers
}

/** Writes a stream of chunks, waiting for Node to drain its buffer whenever it asks to. */
const writeStream = (nodeResponse: Http.ServerResponse, stream: Stream.Stream<Uint8Array, unknown>) => {
  const drained = Effect.unsafeMakeLatch()
  nodeResponse.on("drain", () => drained.unsafeOpen())
  return stream.pipe(
    Stream.runForEachChunk((chunk) => {
      let waiting = false
      for (const bytes of Chunk.toReadonlyArray(chunk)) {
        if (!nodeResponse.write(bytes) && !waiting) {
          waiting = true
          drained.unsafeClose()
        }
      }
      return waiting ? drained.await : Effect.void
    }),
    Effect.interruptible
  )
}

/**
 * Writes a platform response to Node's, as the platform's Node server does: its status, headers and
 * cookies, then its body (none for `HEAD`). A body that fails after its headers were sent ends the
 * response where it is (the client sees it cut), and the failure is the effect's.
 */
export const write = (
  method: string,
  nodeResponse: Http.ServerResponse,
  response: HttpServerResponse.HttpServerResponse
): Effect.Effect<void, unknown> =>
  Effect.suspend(() => {
    if (nodeResponse.writableEnded) return Effect.void
    const headers = headersOf(response)
    const body = response.body
    if (method === "HEAD" || body._tag === "Empty") {
      nodeResponse.writeHead(response.status, headers)
      nodeResponse.end()
      return Effect.void
    }
    switch (body._tag) {
      case "Uint8Array":
        nodeResponse.writeHead(response.status, headers)
        nodeResponse.end(body.body)
        return Effect.void
      case "Raw": {
        nodeResponse.writeHead(response.status, headers)
        const raw = body.body as unknown
        if (typeof raw === "object" && raw !== null && typeof (raw as Readable).pipe === "function") {
          return endWhenCut(
            nodeResponse,
            Effect.tryPromise((signal) => pipeline(raw as Readable, nodeResponse, { signal, end: true }))
          )
        }
        nodeResponse.end(raw as string | Uint8Array)
        return Effect.void
      }
      case "Stream":
        nodeResponse.writeHead(response.status, headers)
        return endWhenCut(
          nodeResponse,
          Effect.zipRight(
            writeStream(nodeResponse, body.stream),
            Effect.sync(() => nodeResponse.end())
          )
        )
      case "FormData": {
        const encoded = new Response(body.formData)
        nodeResponse.writeHead(response.status, { ...headers, ...Object.fromEntries(encoded.headers) })
        return endWhenCut(
          nodeResponse,
          Effect.tryPromise((signal) =>
            pipeline(Readable.fromWeb(encoded.body as never), nodeResponse, { signal, end: true })
          )
        )
      }
    }
  })

/** A body that fails midway ends the response as it is. */
const endWhenCut = (nodeResponse: Http.ServerResponse, writing: Effect.Effect<void, unknown>) =>
  Effect.tapErrorCause(writing, () =>
    Effect.sync(() => {
      if (!nodeResponse.writableEnded) nodeResponse.destroy()
    })
  )
