import type { HttpServerError } from "@effect/platform"
import type { Multipart } from "@effect/platform"
import { NodeMultipart } from "@effect/platform-node"
import { Cause, Chunk, Effect, Stream } from "effect"
import type { IncomingHttpHeaders } from "node:http"
import { PassThrough } from "node:stream"
import { PayloadTooLarge } from "../errors/ApiErrors.js"

const isTooLarge = (cause: Cause.Cause<unknown>) =>
  Chunk.some(Cause.defects(cause), (defect) => defect instanceof PayloadTooLarge)

/**
 * The parts of a `multipart/form-data` body read from `bytes` (the capped body stream) by the Node
 * parser. The bytes are fed to the parser through a pipe that simply ends when they stop, for whatever
 * reason; a body that crossed its limit then fails as the 413 it is, wherever the parser noticed the
 * truncation (between parts or inside a file's content). The platform's generic parser is not used: fed
 * a body that stops inside a file, it loops forever.
 */
export const parts = (
  bytes: Stream.Stream<Uint8Array, HttpServerError.RequestError>,
  headers: IncomingHttpHeaders,
  tooLarge: PayloadTooLarge
): Stream.Stream<Multipart.Part, Multipart.MultipartError> =>
  Stream.unwrapScoped(
    Effect.gen(function* () {
      const pipe = new PassThrough()
      let crossed = false
      const write = (chunk: Uint8Array) =>
        Effect.async<void>((resume) => {
          if (pipe.destroyed || pipe.write(chunk)) resume(Effect.void)
          else pipe.once("drain", () => resume(Effect.void))
        })
      yield* Stream.runForEach(bytes, write).pipe(
        Effect.catchAllCause((cause) =>
          Effect.sync(() => {
            crossed = isTooLarge(cause)
          })
        ),
        Effect.ensuring(Effect.sync(() => pipe.end())),
        Effect.forkScoped
      )
      const refused = <A>(error: Multipart.MultipartError) =>
        crossed ? Stream.die(tooLarge) : (Stream.fail(error) as Stream.Stream<A, Multipart.MultipartError>)
      const guard = (part: Multipart.Part): Multipart.Part => {
        if (part._tag === "Field") return part
        const content = Stream.catchAll(part.content, refused<Uint8Array>)
        return Object.assign(Object.create(part) as Multipart.File, {
          content,
          contentEffect: Effect.catchAll(part.contentEffect, (error) =>
            crossed ? Effect.die(tooLarge) : Effect.fail(error)
          )
        })
      }
      return NodeMultipart.stream(pipe, headers).pipe(
        Stream.map(guard),
        Stream.catchAll(refused<Multipart.Part>)
      )
    })
  )
