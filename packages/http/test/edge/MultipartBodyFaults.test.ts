import { describe, expect, it } from "@effect/vitest"
import { HttpServerError, HttpServerRequest } from "@effect/platform"
import { PayloadTooLarge } from "@voice-agent-platform/contract/errors/ApiErrors.js"
import { Effect, Logger, Stream } from "effect"
import * as MultipartBody from "../../src/edge/MultipartBody.js"

const headers = { "content-type": "multipart/form-data; boundary=xyz" }
const tooLarge = new PayloadTooLarge({ detail: "The body is larger than 10 bytes" })

/** Reads the form from `bytes`, answering the error lines logged meanwhile. */
const errorsWhileReading = (bytes: Stream.Stream<Uint8Array, HttpServerError.RequestError>) =>
  Effect.gen(function* () {
    const lines: Array<string> = []
    const logger = Logger.make(({ logLevel, message }) => {
      if (logLevel._tag === "Error") lines.push(String(message))
    })
    yield* Stream.runDrain(MultipartBody.parts(bytes, headers, tooLarge)).pipe(
      Effect.exit,
      Effect.provide(Logger.replace(Logger.defaultLogger, logger))
    )
    return lines
  })

describe("a multipart body's reading stopping", () => {
  it.effect("a client gone or a body over its limit is the form's answer, never an error line", () =>
    Effect.gen(function* () {
      const gone = new HttpServerError.RequestError({
        request: HttpServerRequest.fromWeb(new Request("http://localhost/")),
        reason: "Transport"
      })
      expect(yield* errorsWhileReading(Stream.fail(gone))).toEqual([])
      expect(yield* errorsWhileReading(Stream.die(tooLarge))).toEqual([])
    })
  )

  it.effect("a defect while reading is the server's fault and is logged", () =>
    Effect.gen(function* () {
      const lines = yield* errorsWhileReading(Stream.die(new Error("a bug")))
      expect(lines).toContain("reading a multipart body failed")
    })
  )
})
