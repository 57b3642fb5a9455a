import type { HttpServerError } from "@effect/platform"
import { Multipart } from "@effect/platform"
import { NodeMultipart } from "@effect/platform-node"
import { Cause, Chunk, Effect, Option, Stream } from "effect"
import type { IncomingHttpHeaders } from "node:http"
import type { Readable, Writable } from "node:stream"
import { PassThrough } from "node:stream"
import { PayloadTooLarge } from "@voice-agent-platform/contract/errors/ApiErrors.js"

const isTooLarge = (cause: Cause.Cause<unknown>) =>
  Chunk.some(Cause.defects(cause), (defect) => defect instanceof PayloadTooLarge)

/** RFC 2046's boundary: 1 to 70 of its characters, not ending in a space, quoted or not. */
const boundaryParameter =
  /;\s*boundary\s*=\s*(?:"([0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?])"|([0-9A-Za-z'()+_,\-./:=?]{1,70}))\s*(?:;|$)/i

/** Whether a `multipart/*` media type carries a usable boundary; the parser fails badly without one. */
export const hasBoundary = (contentType: string): boolean => boundaryParameter.test(contentType)

/** The parser's own name for a form that stops before its closing boundary. */
const endNotReached = () =>
  Object.assign(new Error("The form ends before its closing boundary"), { _tag: "EndNotReached" })

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
      if (!hasBoundary(String(headers["content-type"] ?? ""))) {
        return Stream.fail(
          new Multipart.MultipartError({ reason: "Parse", cause: new Error("No valid multipart boundary") })
        )
      }
      const pipe = new PassThrough()
      // The parser (multipasta) ends neither with its parts nor with an error when the body stops between
      // two parts or is empty: once it has taken the whole input, such a silent parser is failed here.
      // Nor does it always end the file it was streaming when the body stops inside a boundary: once the
      // parser is closed, every file it produced that has not ended is failed too.
      const files = new Set<Readable>()
      let parserClosed = false
      const failFile = (file: Readable) => {
        if (!file.readableEnded && !file.destroyed) file.destroy(endNotReached())
      }
      pipe.pipe = function <T extends NodeJS.WritableStream>(parser: T, options?: { end?: boolean }): T {
        const watched = parser as unknown as Writable & {
          readonly _readableState?: { readonly ended?: boolean }
        }
        watched.once("finish", () =>
          setImmediate(() => {
            if (!watched.destroyed && watched._readableState?.ended !== true) watched.destroy(endNotReached())
          })
        )
        watched.once("close", () => {
          parserClosed = true
          files.forEach(failFile)
        })
        return PassThrough.prototype.pipe.call(this, parser, options) as T
      }
      let crossed = false
      const write = (chunk: Uint8Array) =>
        Effect.async<void>((resume) => {
          if (pipe.destroyed || pipe.write(chunk)) resume(Effect.void)
          else pipe.once("drain", () => resume(Effect.void))
        })
      yield* Stream.runForEach(bytes, write).pipe(
        // The bytes stop, for whatever reason, and the pipe ends: the parser answers for the form (a body
        // over its limit is the 413 below, one whose client went away a form cut short). Only a defect
        // other than the limit is the server's own fault, and logged.
        Effect.catchAllCause((cause) =>
          Effect.suspend(() => {
            crossed = isTooLarge(cause)
            return crossed || !Cause.isDie(cause)
              ? Effect.void
              : Effect.logError("reading a multipart body failed", cause)
          })
        ),
        Effect.ensuring(Effect.sync(() => pipe.end())),
        Effect.forkScoped
      )
      const refused = <A>(error: Multipart.MultipartError) =>
        crossed ? Stream.die(tooLarge) : (Stream.fail(error) as Stream.Stream<A, Multipart.MultipartError>)
      const guard = (part: Multipart.Part): Multipart.Part => {
        if (part._tag === "Field") return part
        const readable = NodeMultipart.fileToReadable(part)
        files.add(readable)
        if (parserClosed) failFile(readable)
        const content = Stream.catchAll(part.content, refused<Uint8Array>)
        return Object.assign(Object.create(part) as Multipart.File, {
          content,
          contentEffect: Effect.catchAll(part.contentEffect, (error) =>
            crossed ? Effect.die(tooLarge) : Effect.fail(error)
          )
        })
      }
      // The parser throws on a content type it cannot read (an unhandled "error" while it is made):
      // that is a form it cannot read, not a failure of the server.
      return NodeMultipart.stream(pipe, headers).pipe(
        Stream.map(guard),
        Stream.catchAllCause((cause) =>
          crossed
            ? Stream.die(tooLarge)
            : Cause.isInterruptedOnly(cause)
              ? Stream.failCause(cause)
              : Stream.fail(
                  Option.getOrElse(
                    Cause.failureOption(cause),
                    () => new Multipart.MultipartError({ reason: "Parse", cause: Cause.squash(cause) })
                  )
                )
        )
      )
    })
  )
