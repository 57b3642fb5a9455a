import type { HttpServerRequest } from "@effect/platform"
import { Multipart } from "@effect/platform"
import { ContactImport } from "@voice-agent-platform/core"
import { HttpApiDecodeError } from "@effect/platform/HttpApiError"
import { Effect, Either, Option, ParseResult, Schema, Stream } from "effect"
import type { ValidationIssue } from "@voice-agent-platform/contract/errors/ApiErrors.js"
import { ValidationError } from "@voice-agent-platform/contract/errors/ApiErrors.js"
import * as MediaType from "@voice-agent-platform/contract/edge/MediaType.js"
import { AddContactsJson } from "@voice-agent-platform/contract/campaigns/CampaignsApi.js"

/** Form parts a contacts upload may have: the file and a little room for stray fields. */
const maxParts = 5
const maxFieldBytes = 1024

const invalid = (loc: ReadonlyArray<string>, msg: string, type: string) =>
  new ValidationError({ detail: [{ loc, msg, type } as ValidationIssue] })

const utf8 = new TextDecoder("utf-8", { fatal: true })

/** CSV text from bytes that must be UTF-8. */
const csvText = (bytes: Uint8Array, loc: ReadonlyArray<string>) =>
  Either.match(
    Either.try(() => utf8.decode(bytes)),
    {
      onLeft: () => Effect.fail(invalid(loc, "The CSV file is not UTF-8 text", "value_error.csv")),
      onRight: Effect.succeed
    }
  )

const rowsOfCsv = (text: string, loc: ReadonlyArray<string>) =>
  Either.match(ContactImport.rowsOfCsv(text), {
    onLeft: (error) => Effect.fail(invalid(loc, error.detail, "value_error.csv")),
    onRight: Effect.succeed
  })

/** The `file` part's bytes; other parts are drained and ignored. */
const fileOfForm = (request: HttpServerRequest.HttpServerRequest) =>
  request.multipartStream.pipe(
    Multipart.withLimitsStream({
      maxParts: Option.some(maxParts),
      maxFieldSize: maxFieldBytes,
      fieldMimeTypes: []
    }),
    Stream.mapEffect((part) =>
      part._tag === "File" && part.key === "file"
        ? Effect.map(part.contentEffect, Option.some)
        : part._tag === "File"
          ? Effect.as(Stream.runDrain(part.content), Option.none<Uint8Array>())
          : Effect.succeed(Option.none<Uint8Array>())
    ),
    Stream.filterMap((file) => file),
    Stream.runHead,
    Effect.catchAll(() =>
      Effect.fail(
        invalid(["body"], "The body is not a readable multipart/form-data form", "value_error.multipart")
      )
    ),
    Effect.flatMap(
      Option.match({
        onNone: () => Effect.fail(invalid(["body", "file"], "Field required", "missing")),
        onSome: Effect.succeed
      })
    )
  )

/**
 * The contacts of a `POST …/contacts` request, by its `Content-Type` (the edge has already refused any
 * other with 415 and bounded the size): a JSON body decoded with its schema (a failure is the API's 422
 * listing every field), a multipart form's `file`, or a `text/csv` body, both read as CSV. A CSV file
 * that cannot be imported as a whole is a 422 and nothing of it is imported.
 */
export const read = (
  request: HttpServerRequest.HttpServerRequest
): Effect.Effect<ReadonlyArray<ContactImport.ImportRow>, ValidationError | HttpApiDecodeError> =>
  Effect.gen(function* () {
    const contentType = request.headers["content-type"]
    const mediaType = contentType === undefined ? "application/json" : MediaType.essence(contentType)
    if (mediaType === "multipart/form-data") {
      return yield* rowsOfCsv(yield* csvText(yield* fileOfForm(request), ["body", "file"]), ["body", "file"])
    }
    if (mediaType === "text/csv") {
      // a failed read (too large, cut off) is the edge's to answer, as for every body
      const bytes = new Uint8Array(yield* Effect.orDie(request.arrayBuffer))
      return yield* rowsOfCsv(yield* csvText(bytes, ["body"]), ["body"])
    }
    const body = yield* Schema.decodeUnknown(AddContactsJson, { errors: "all", onExcessProperty: "error" })(
      yield* Effect.orDie(request.json)
    ).pipe(Effect.catchIf(ParseResult.isParseError, HttpApiDecodeError.refailParseError))
    return body.contacts.map((contact, i) => ({
      row: i + 1,
      phone_number: contact.phone_number,
      initial_context: contact.initial_context ?? {}
    }))
  })
