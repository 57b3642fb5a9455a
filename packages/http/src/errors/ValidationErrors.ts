import type { HttpApi, HttpServerRequest } from "@effect/platform"
import { HttpMethod } from "@effect/platform"
import type { HttpApiDecodeError } from "@effect/platform/HttpApiError"
import { Effect, Either, Option, ParseResult, Schema } from "effect"
import * as BodyPolicy from "@voice-agent-platform/contract/edge/BodyPolicy.js"
import * as EndpointRouter from "../edge/EndpointRouter.js"
import type { ValidationIssue } from "@voice-agent-platform/contract/errors/ApiErrors.js"
import { ValidationError } from "@voice-agent-platform/contract/errors/ApiErrors.js"

/** Where a failing field was: FastAPI's first `loc` element. */
export type Location = "body" | "query" | "path" | "header"

const typeOf: Record<ParseResult.ArrayFormatterIssue["_tag"], string> = {
  Missing: "missing",
  Unexpected: "extra_forbidden",
  Type: "type_error",
  Refinement: "value_error",
  Transformation: "value_error",
  Forbidden: "value_error",
  Pointer: "value_error",
  Composite: "value_error"
}

/** One FastAPI-shaped issue from an Effect Schema issue. */
/** Messages quote the rejected value: keep them short, so a huge or secret value is not echoed whole. */
const maxMessageLength = 300

const shorten = (message: string) =>
  message.length <= maxMessageLength ? message : `${message.slice(0, maxMessageLength)}…`

export const toIssue = (location: Location, issue: ParseResult.ArrayFormatterIssue): ValidationIssue => ({
  loc: [location, ...issue.path.map((key) => (typeof key === "number" ? key : String(key)))],
  msg:
    issue._tag === "Missing"
      ? "Field required"
      : issue._tag === "Unexpected"
        ? "Extra inputs are not permitted"
        : shorten(issue.message),
  type: typeOf[issue._tag] ?? "value_error"
})

/** The 422 for a body that is not JSON at all. */
export const malformedJson = (reason: string): ValidationError =>
  new ValidationError({
    detail: [{ loc: ["body"], msg: `JSON decode error: ${reason}`, type: "json_invalid" }]
  })

const expectation = /^Expected (.*), actual (.*)$/s

/**
 * A value outside a union (e.g. a status that is none of the allowed literals) yields one issue per
 * member; they are merged into one issue per field: `Expected "active" | "archived", actual "gone"`.
 */
export const mergeAlternatives = (issues: ReadonlyArray<ValidationIssue>): Array<ValidationIssue> => {
  const merged: Array<ValidationIssue> = []
  const byLoc = new Map<string, { issue: ValidationIssue; expected: Array<string>; actual: string }>()
  for (const issue of issues) {
    const match = issue.type === "type_error" ? expectation.exec(issue.msg) : null
    const key = JSON.stringify(issue.loc)
    const previous = byLoc.get(key)
    if (match !== null && previous !== undefined && previous.actual === match[2]) {
      previous.expected.push(match[1]!)
      const index = merged.indexOf(previous.issue)
      const issueMerged = {
        ...previous.issue,
        msg: `Expected ${previous.expected.join(" | ")}, actual ${previous.actual}`
      }
      merged[index] = issueMerged
      previous.issue = issueMerged
      continue
    }
    merged.push(issue)
    if (match !== null) byLoc.set(key, { issue, expected: [match[1]!], actual: match[2]! })
  }
  return merged
}

const issuesOf = (
  location: Location,
  schema: Option.Option<Schema.Schema.Any>,
  input: unknown
): ReadonlyArray<ValidationIssue> => {
  if (Option.isNone(schema)) return []
  const result = Schema.decodeUnknownEither(schema.value as Schema.Schema<unknown, unknown, never>, {
    errors: "all",
    onExcessProperty: location === "body" ? "error" : "ignore"
  })(input)
  return Either.isLeft(result)
    ? ParseResult.ArrayFormatter.formatErrorSync(result.left).map((issue) => toIssue(location, issue))
    : []
}

/**
 * Turns the API's decode failures into FastAPI's 422, listing every failing field of every part of the
 * request. HttpApi stops at the first failing part and does not say which one it was, so on failure the
 * request is matched to its endpoint again (as the platform's router matched it, on the raw target) and
 * each part (path, body, headers, query) is decoded with every error reported. This runs only for invalid
 * requests, never on the happy path; the body is the one already read (`EdgeRequest` reads it once).
 */
export const makeResolver = <
  Id extends string,
  Groups extends import("@effect/platform").HttpApiGroup.HttpApiGroup.Any,
  E,
  R
>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
) => {
  const match = EndpointRouter.make(api)

  return (
    request: HttpServerRequest.HttpServerRequest,
    error: HttpApiDecodeError
  ): Effect.Effect<ValidationError | undefined> =>
    Effect.gen(function* () {
      const fallback = new ValidationError({
        detail: error.issues.map((issue) =>
          toIssue("body", {
            _tag: issue._tag,
            path: issue.path,
            message: issue.message
          } as ParseResult.ArrayFormatterIssue)
        )
      })
      const found = match(request.method, request.url)
      if (found === undefined) return fallback
      const endpoint = found.endpoint
      const issues: Array<ValidationIssue> = [
        ...issuesOf("path", endpoint.pathSchema, found.params),
        ...issuesOf("header", endpoint.headersSchema, request.headers)
      ]
      const policy = BodyPolicy.select(BodyPolicy.of(endpoint), request.headers["content-type"])
      // A body of a media type the operation does not take is never read (the edge answers 415 when
      // the handler asks for it): the other parts are reported.
      const readable = BodyPolicy.accepts(policy, request.headers["content-type"])
      if (HttpMethod.hasBody(request.method) && policy._tag !== "None" && readable) {
        if (policy._tag !== "Json") {
          // A streamed body was consumed by its handler and cannot be read again: report what failed.
          issues.push(...fallback.detail)
        } else {
          const text = yield* Effect.orElseSucceed(request.text, () => "")
          if (text.trim() === "") {
            issues.push({ loc: ["body"], msg: "Field required", type: "missing" })
          } else {
            const body = Either.try(() => JSON.parse(text) as unknown)
            if (Either.isLeft(body)) return malformedJson("the body is not valid JSON")
            issues.push(...issuesOf("body", BodyPolicy.jsonPayload(endpoint), body.right))
          }
        }
      }
      issues.push(...issuesOf("query", endpoint.urlParamsSchema, found.searchParams))
      // Nothing in the request is wrong: the failure was the server's (e.g. a response that does not
      // encode), which the caller must not be told is its own.
      return issues.length === 0 ? undefined : new ValidationError({ detail: mergeAlternatives(issues) })
    })
}
