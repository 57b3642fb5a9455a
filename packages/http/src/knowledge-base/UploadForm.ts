import { Multipart } from "@effect/platform"
import { KnowledgeBaseErrors } from "@voice-agent-platform/core"
import { Effect, Option, Stream } from "effect"
import type { ValidationIssue } from "@voice-agent-platform/contract/errors/ApiErrors.js"
import { PayloadTooLarge, ValidationError } from "@voice-agent-platform/contract/errors/ApiErrors.js"
import * as CoreErrors from "../errors/CoreErrors.js"
import * as StorableText from "@voice-agent-platform/contract/middleware/StorableText.js"
import {
  maxUploadBytes,
  maxUploadFieldBytes,
  maxUploadParts
} from "@voice-agent-platform/contract/knowledge-base/KnowledgeBaseApi.js"

/** The upload form, read and checked. */
export interface UploadForm {
  readonly file: {
    readonly name: string
    readonly content_type: string
    readonly bytes: Uint8Array
  }
  readonly custom_metadata: Readonly<Record<string, unknown>>
  readonly source_url: string | null
}

const maxFieldBytes = maxUploadFieldBytes
const maxParts = maxUploadParts
const maxSourceUrlLength = 2048
const partHeaderAllowance = 16 * 1024

const fields = new Set(["file", "custom_metadata", "source_url"])

const issue = (field: string | null, msg: string, type: string): ValidationIssue => ({
  loc: field === null ? ["body"] : ["body", field],
  msg,
  type
})

type Part =
  | { readonly _tag: "Field"; readonly key: string; readonly value: string }
  | {
      readonly _tag: "File"
      readonly key: string
      readonly name: string
      readonly contentType: string
      readonly bytes: Uint8Array
    }

/** The form's parts; a file's bytes are read only for the `file` part, so stray files cost nothing. */
const readParts = (stream: Stream.Stream<Multipart.Part, Multipart.MultipartError>, maxFileBytes: number) =>
  stream.pipe(
    Multipart.withLimitsStream({
      maxParts: Option.some(maxParts),
      maxFieldSize: maxFieldBytes,
      // the parser counts a part's headers too: the exact limit is the knowledge base's own check
      maxFileSize: Option.some(maxFileBytes + partHeaderAllowance),
      // by default a part declared application/json is read as a text field: a JSON document is a file here
      fieldMimeTypes: []
    }),
    Stream.mapEffect((part): Effect.Effect<Part, Multipart.MultipartError> =>
      part._tag === "Field"
        ? Effect.succeed({ _tag: "Field", key: part.key, value: part.value })
        : part.key === "file"
          ? Effect.map(part.contentEffect, (bytes) => ({
              _tag: "File",
              key: part.key,
              name: part.name,
              contentType: part.contentType,
              bytes
            }))
          : Effect.as(Stream.runDrain(part.content), {
              _tag: "File",
              key: part.key,
              name: part.name,
              contentType: part.contentType,
              bytes: new Uint8Array()
            })
    ),
    Stream.runCollect,
    Effect.map((chunk) => Array.from(chunk))
  )

const parserErrorTags = new Set(["InvalidBoundary", "BadHeaders", "InvalidDisposition", "EndNotReached"])

/**
 * Why a form could not be read. The Node adapter reports failures while a file's bytes stream (such as
 * the size limit) as `InternalError`, with the parser's (multipasta) error as the cause: classify those
 * as the adapter does for failures outside file content.
 */
const reasonOf = (error: Multipart.MultipartError): Multipart.MultipartError["reason"] => {
  if (error.reason !== "InternalError") return error.reason
  const cause = error.cause as { readonly _tag?: unknown; readonly limit?: unknown } | null | undefined
  if (cause?._tag === "ReachedLimit") {
    switch (cause.limit) {
      case "MaxParts":
        return "TooManyParts"
      case "MaxFieldSize":
        return "FieldTooLarge"
      case "MaxPartSize":
        return "FileTooLarge"
      case "MaxTotalSize":
        return "BodyTooLarge"
    }
  }
  return typeof cause?._tag === "string" && parserErrorTags.has(cause._tag) ? "Parse" : "InternalError"
}

/** The 422 (413 for a form over its total) of an unreadable multipart body, or, for a failure of the server itself, the defect. */
const unreadable = (
  error: Multipart.MultipartError,
  maxFileBytes: number
): Effect.Effect<never, ValidationError | PayloadTooLarge> => {
  switch (reasonOf(error)) {
    case "FileTooLarge":
      return Effect.fail(
        CoreErrors.toHttp(new KnowledgeBaseErrors.DocumentTooLarge({ max_bytes: maxFileBytes }))
      )
    case "FieldTooLarge":
      return Effect.fail(
        new ValidationError({
          detail: [issue(null, `A text field is over ${maxFieldBytes} bytes`, "value_error.field_too_large")]
        })
      )
    case "TooManyParts":
      return Effect.fail(
        new ValidationError({
          detail: [issue(null, `The form has more than ${maxParts} parts`, "value_error.too_many_parts")]
        })
      )
    case "BodyTooLarge":
      return Effect.fail(new PayloadTooLarge({ detail: `The body must be at most ${maxUploadBytes} bytes` }))
    case "Parse":
      return Effect.fail(
        new ValidationError({
          detail: [
            issue(null, "The body is not a readable multipart/form-data form", "value_error.multipart")
          ]
        })
      )
    case "InternalError":
      return Effect.die(error)
  }
}

const parseMetadata = (text: string): Option.Option<Record<string, unknown>> => {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? Option.some(value as Record<string, unknown>)
      : Option.none()
  } catch {
    return Option.none()
  }
}

const isWebUrl = (text: string): boolean => {
  try {
    const url = new URL(text)
    return (url.protocol === "http:" || url.protocol === "https:") && text.length <= maxSourceUrlLength
  } catch {
    return false
  }
}

/**
 * Reads `POST /knowledge-base/documents`: exactly one file in `file`, optional `custom_metadata` (a
 * JSON object as text) and `source_url` (an absolute http(s) URL); empty text fields count as absent,
 * as browsers send them for blank inputs. Every problem is listed in one FastAPI-shaped 422.
 */
export const read = (
  stream: Stream.Stream<Multipart.Part, Multipart.MultipartError>,
  maxFileBytes: number
): Effect.Effect<UploadForm, ValidationError | PayloadTooLarge> =>
  Effect.gen(function* () {
    // The media type was checked at the edge (415) when the stream started: only forms get this far.
    const parts = yield* readParts(stream, maxFileBytes).pipe(
      Effect.catchAll((error) => unreadable(error, maxFileBytes))
    )
    const issues: Array<ValidationIssue> = []
    const byKey = (key: string) => parts.filter((part) => part.key === key)

    for (const key of new Set(parts.map((part) => part.key))) {
      if (!fields.has(key)) issues.push(issue(key, "Extra inputs are not permitted", "extra_forbidden"))
    }

    // A file input left blank is sent as a file with no name and no bytes.
    const files = byKey("file").filter(
      (part) => !(part._tag === "File" && part.name === "" && part.bytes.length === 0)
    )
    const file = files[0]
    if (file === undefined) {
      issues.push(issue("file", "Field required", "missing"))
    } else if (file._tag !== "File") {
      issues.push(issue("file", "Expected an uploaded file, not a text field", "value_error.file"))
    } else if (files.length > 1) {
      issues.push(issue("file", "Expected exactly one file", "value_error.file"))
    }

    const text = (key: string): Option.Option<string> => {
      const given = byKey(key).filter((part) => !(part._tag === "Field" && part.value === ""))
      if (given.length === 0) return Option.none()
      const [first] = given
      if (given.length > 1 || first?._tag !== "Field") {
        issues.push(issue(key, "Expected one text value", "value_error"))
        return Option.none()
      }
      return Option.some(first.value)
    }

    const metadataText = text("custom_metadata")
    const metadata = Option.flatMap(metadataText, parseMetadata)
    if (Option.isSome(metadataText) && Option.isNone(metadata)) {
      issues.push(issue("custom_metadata", "Expected a JSON object, as text", "value_error.json"))
    } else if (Option.isSome(metadata) && StorableText.hasUnstorableText(metadata.value)) {
      issues.push(issue("custom_metadata", StorableText.message, "value_error"))
    }
    const sourceUrl = text("source_url")
    if (Option.isSome(sourceUrl) && !isWebUrl(sourceUrl.value)) {
      issues.push(
        issue(
          "source_url",
          `Expected an absolute http(s) URL of at most ${maxSourceUrlLength} characters`,
          "value_error.url"
        )
      )
    }

    if (issues.length > 0 || file?._tag !== "File")
      return yield* Effect.fail(new ValidationError({ detail: issues }))
    return {
      file: { name: file.name, content_type: file.contentType, bytes: file.bytes },
      custom_metadata: Option.getOrElse(metadata, () => ({})),
      source_url: Option.getOrNull(sourceUrl)
    }
  })
