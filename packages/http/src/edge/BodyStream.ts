import type { HttpServerRequest } from "@effect/platform"
import { HttpServerError } from "@effect/platform"
import { NodeStream } from "@effect/platform-node"
import { Chunk, Effect, Stream } from "effect"
import { IncomingMessage } from "node:http"
import { PayloadTooLarge } from "@voice-agent-platform/contract/errors/ApiErrors.js"

/** The 413 of a body over `maxBytes`. */
export const tooLarge = (maxBytes: number) =>
  new PayloadTooLarge({ detail: `The body must be at most ${maxBytes} bytes` })

/**
 * A Node request's body. Unlike the platform's own stream, stopping early (a limit crossed, a form
 * refused) does not destroy the request, which would reset the connection before the answer is written:
 * the rest of the body is discarded as it arrives instead (never buffered), so the client reads the 413
 * or 422 and the connection stays usable.
 */
const fromNode = (request: HttpServerRequest.HttpServerRequest, source: IncomingMessage) =>
  NodeStream.fromReadable(
    () => source,
    (cause) => new HttpServerError.RequestError({ request, reason: "Decode", cause }),
    { closeOnDone: false }
  ).pipe(
    Stream.ensuring(
      Effect.sync(() => {
        if (!source.readableEnded) source.resume()
      })
    )
  )

/** Whether the request declares a `Content-Length` over `maxBytes` (refused before a byte is read). */
const declaredOver = (request: HttpServerRequest.HttpServerRequest, maxBytes: number): boolean =>
  Number(request.headers["content-length"] ?? "0") > maxBytes

/**
 * The request's body as a stream that ends in a 413 (`PayloadTooLarge`, as a defect that no handler can
 * mistake for its own failure) as soon as more than `maxBytes` have arrived, chunked or not; a declared
 * `Content-Length` over the limit is refused before a byte is read.
 */
export const capped = (
  request: HttpServerRequest.HttpServerRequest,
  maxBytes: number
): Stream.Stream<Uint8Array, HttpServerError.RequestError> =>
  Stream.suspend(() => {
    if (declaredOver(request, maxBytes)) return Stream.die(tooLarge(maxBytes))
    const source = request.source
    const chunks = source instanceof IncomingMessage ? fromNode(request, source) : request.stream
    let received = 0
    return Stream.mapChunksEffect(chunks, (chunk) => {
      received += Chunk.reduce(chunk, 0, (total, bytes) => total + bytes.length)
      return received > maxBytes ? Effect.die(tooLarge(maxBytes)) : Effect.succeed(chunk)
    })
  })

/**
 * A Node request's whole body, at most `maxBytes`, read from its events in one wait: the same answers as
 * collecting `capped` (a 413 for a declared or received size over the limit, a read error as the
 * platform's `RequestError`), without a stream's steps for each chunk. Stopping early (the limit, the
 * reader interrupted) discards the rest as it arrives, never destroying the request.
 */
const collectNode = (
  request: HttpServerRequest.HttpServerRequest,
  source: IncomingMessage,
  maxBytes: number
): Effect.Effect<Uint8Array, HttpServerError.RequestError> =>
  Effect.async<Uint8Array, HttpServerError.RequestError>((resume) => {
    // read already (a body is read once): nothing more will come
    if (source.readableEnded) return resume(Effect.succeed(new Uint8Array()))
    const chunks: Array<Buffer> = []
    let size = 0
    let settled = false
    const settle = (answer: Effect.Effect<Uint8Array, HttpServerError.RequestError>) => {
      if (settled) return
      settled = true
      source.off("data", onData)
      source.off("end", onEnd)
      source.off("error", onError)
      source.off("close", onClose)
      if (!source.readableEnded) source.resume()
      resume(answer)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBytes) return settle(Effect.die(tooLarge(maxBytes)))
      chunks.push(chunk)
    }
    // a plain array of its own: a socket's buffers may be views of a pool shared with other data
    const onEnd = () => {
      const bytes = new Uint8Array(size)
      let offset = 0
      for (const chunk of chunks) {
        bytes.set(chunk, offset)
        offset += chunk.length
      }
      settle(Effect.succeed(bytes))
    }
    const onError = (cause: unknown) =>
      settle(Effect.fail(new HttpServerError.RequestError({ request, reason: "Decode", cause })))
    const onClose = () => {
      if (!source.complete) onError(new Error("the request was aborted before its body arrived"))
    }
    source.on("data", onData)
    source.on("end", onEnd)
    source.on("error", onError)
    source.on("close", onClose)
    // flowing, also if something paused it before
    source.resume()
    return Effect.sync(() => settle(Effect.succeed(new Uint8Array())))
  })

/** The whole body, at most `maxBytes`, in one array. */
export const collect = (
  request: HttpServerRequest.HttpServerRequest,
  maxBytes: number
): Effect.Effect<Uint8Array, HttpServerError.RequestError> => {
  const source = request.source
  if (source instanceof IncomingMessage) {
    if (declaredOver(request, maxBytes)) return Effect.die(tooLarge(maxBytes))
    return collectNode(request, source, maxBytes)
  }
  return Effect.map(Stream.runCollect(capped(request, maxBytes)), (chunks) => {
    const size = Chunk.reduce(chunks, 0, (total, bytes) => total + bytes.length)
    const bytes = new Uint8Array(size)
    let offset = 0
    for (const part of chunks) {
      bytes.set(part, offset)
      offset += part.length
    }
    return bytes
  })
}
