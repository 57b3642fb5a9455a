import { HttpApiSchema, HttpServerResponse } from "@effect/platform"
import {
  IdempotencyKey,
  IdempotencyRecord,
  IdempotencyRule,
  IdempotencyStore,
  RequestFingerprint,
  type RunId
} from "@voice-agent-platform/core"
import { Cause, Clock, Effect, Exit, Option, Schema } from "effect"
import { Conflict, isApiError, statusOf, ValidationError } from "../errors/ApiErrors.js"
import { CurrentOrganization } from "../middleware/Authentication.js"

/** The header a repeated request's answer carries: it is the first request's answer, sent again. */
export const replayedHeader = "Idempotency-Replayed"

const headerDescription = `Makes the request safe to retry. The first request with a key runs; for 24 hours a repeat with the same key and the same body (and path) gets the first answer again, with the same status and body and the header \`${replayedHeader}: true\`, and does nothing. Once the call it placed is deleted, the kept answer is erased with it: the key then answers 404 \`{detail}\` to any request, and places nothing. The same key with another body is 422 at \`["header","Idempotency-Key"]\`; while the first request is still running, 409. Answers that a retry may change (409, 429, 5xx) are not kept, so retrying them with the same key runs the request again; so does a retry ${IdempotencyRecord.defaultTtl.leaseSeconds} s after a first request that never answered. Keys are per organization; ${IdempotencyKey.keyLength.min} to ${IdempotencyKey.keyLength.max} printable ASCII characters, e.g. a UUID.`

/**
 * The optional `Idempotency-Key` header. Node hands headers over in lower case; they are decoded to the
 * header's own spelling, so that a malformed key is a 422 at `["header","Idempotency-Key"]`, the same
 * place as a reused one.
 */
export const IdempotencyKeyHeader = Schema.transform(
  Schema.Struct({
    "idempotency-key": Schema.optionalWith(
      Schema.String.annotations({
        description: headerDescription,
        jsonSchema: {
          minLength: IdempotencyKey.keyLength.min,
          maxLength: IdempotencyKey.keyLength.max,
          pattern: IdempotencyKey.keyPattern.source
        }
      }),
      { exact: true }
    )
  }),
  Schema.Struct({
    "Idempotency-Key": Schema.optionalWith(IdempotencyKey.IdempotencyKey, { exact: true })
  }),
  {
    strict: true,
    decode: ({ "idempotency-key": key }) => (key === undefined ? {} : { "Idempotency-Key": key }),
    encode: ({ "Idempotency-Key": key }) => (key === undefined ? {} : { "idempotency-key": key })
  }
)

/** What makes a request the same request: its route and what it carried. */
export interface IdempotentRequest<A, I> {
  /** The decoded headers of an endpoint declaring `IdempotencyKeyHeader`. */
  readonly headers: typeof IdempotencyKeyHeader.Type
  /** `POST` and the route template, e.g. `/agents/:agent_id/calls`. */
  readonly method: string
  readonly route: string
  readonly path: Readonly<Record<string, unknown>>
  /** The decoded body. */
  readonly body: unknown
  /** The endpoint's success schema, to keep the answer exactly as it went out. */
  readonly success: Schema.Schema<A, I>
  /** The run a success names (a placed call): deleting that run erases the kept answer with it. */
  readonly runOf?: (answer: A) => RunId.RunId
}

const inFlight = new Conflict({
  detail:
    "idempotency_key_in_use: a request with this Idempotency-Key is still running; retry when it has answered"
})

const mismatch = new ValidationError({
  detail: [
    {
      loc: ["header", "Idempotency-Key"],
      msg: "This Idempotency-Key was already used with another request (another body or path); use a new key for a new request",
      type: "value_error.idempotency_key_reused"
    }
  ]
})

/** A stored answer, sent again with the replay header. */
const replay = (response: IdempotencyRecord.StoredResponse): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.unsafeJson(response.body, {
    status: response.status,
    headers: { [replayedHeader.toLowerCase()]: "true" }
  })

/** The answer an API error went out as: its status and its fields as `ErrorResponses.render` writes them. */
const errorResponse = (error: unknown): Option.Option<IdempotencyRecord.StoredResponse> => {
  if (!isApiError(error)) return Option.none()
  const { retryAfterSeconds: _, ...fields } = error as typeof error & { retryAfterSeconds?: number }
  return Option.some({ status: statusOf(error), body: JSON.parse(JSON.stringify(fields)) as unknown })
}

/**
 * Runs an endpoint's handler under its `Idempotency-Key`, if the request has one (without, the handler
 * just runs). The key is claimed first: a repeat of a request whose final answer is kept gets that
 * answer again (`Idempotency-Replayed: true`), a request still running is 409, another request under the
 * key is 422. A final answer (2xx, 4xx but 409 and 429) is kept; anything else (409, 429, 5xx, a defect,
 * an interruption) frees the key, so that retrying works.
 */
export const run = <A, I, E, R>(
  request: IdempotentRequest<A, I>,
  handler: Effect.Effect<A, E, R>
): Effect.Effect<
  A | HttpServerResponse.HttpServerResponse,
  E | Conflict | ValidationError,
  R | IdempotencyStore.IdempotencyStore | CurrentOrganization
> => {
  const key = request.headers["Idempotency-Key"]
  if (key === undefined) return handler
  const status = HttpApiSchema.getStatusSuccess(request.success)
  const encode = Schema.encode(request.success)
  // From the claim on, every way out stores the answer or frees the key, interruption included: only
  // the handler itself may be interrupted, and then the key is freed.
  return Effect.uninterruptibleMask((restore) =>
    Effect.gen(function* () {
      const organization = yield* CurrentOrganization
      const store = yield* IdempotencyStore.IdempotencyStore
      const fingerprint = yield* RequestFingerprint.fingerprint(request)
      const claim = {
        organization_id: organization.id,
        key,
        fingerprint,
        token: globalThis.crypto.randomUUID()
      }
      const now = new Date(yield* Clock.currentTimeMillis)
      const begun = yield* store.begin(claim, now, IdempotencyRecord.defaultTtl)
      if (begun._tag === "Replay") return replay(begun.response)
      if (begun._tag === "InFlight") return yield* Effect.fail(inFlight)
      if (begun._tag === "Mismatch") return yield* Effect.fail(mismatch)
      return yield* restore(handler).pipe(
        Effect.onExit((exit) => {
          const runId = Exit.isSuccess(exit) && request.runOf !== undefined ? request.runOf(exit.value) : null
          const kept: Effect.Effect<Option.Option<IdempotencyRecord.StoredResponse>> = Exit.match(exit, {
            onSuccess: (value) =>
              encode(value).pipe(
                Effect.map((body) => Option.some({ status, body: body as unknown })),
                Effect.orElseSucceed(() => Option.none())
              ),
            onFailure: (cause) =>
              Effect.succeed(
                Option.flatMap(Cause.failureOption(cause), errorResponse).pipe(
                  Option.filter((response) => IdempotencyRule.isFinal(response.status))
                )
              )
          })
          return Effect.flatMap(kept, (response) =>
            Option.match(response, {
              onNone: () => store.abandon(claim),
              onSome: (final) => store.complete(claim, final, runId)
            })
          )
        })
      )
    })
  )
}

/**
 * Documents an idempotent endpoint in the OpenAPI document: the header parameter under its own spelling,
 * the `Idempotency-Replayed` header on every answer that may be a replay, and what a 409 means for a
 * key.
 */
export const document = (operation: Record<string, any>): Record<string, any> => {
  // the parameter is named as the header is written, not as Node hands it over
  for (const parameter of (operation.parameters ?? []) as Array<Record<string, unknown>>) {
    if (parameter.in === "header" && parameter.name === "idempotency-key") parameter.name = "Idempotency-Key"
  }
  const responses = operation.responses as Record<string, Record<string, any>>
  for (const [status, response] of Object.entries(responses)) {
    if (!IdempotencyRule.isFinal(Number(status)) || status === "401") continue
    response.headers = {
      ...response.headers,
      [replayedHeader]: {
        description:
          "`true` when this is the kept answer of an earlier request with the same Idempotency-Key",
        schema: { type: "string", enum: ["true"] }
      }
    }
  }
  // A reused key's 422 is described with the header instead: OpenApiDocument.fix gives every operation
  // the same 422 description.
  const conflict = responses["409"]
  if (conflict !== undefined) {
    conflict.description = `${conflict.description}; or a request with the same Idempotency-Key is still running`
  }
  return operation
}
