import { HttpApiSchema, HttpServerResponse } from "@effect/platform"
import {
  IdempotencyRecord,
  IdempotencyRule,
  IdempotencyStore,
  RequestFingerprint,
  type RunId
} from "@voice-agent-platform/core"
import { Cause, Clock, Effect, Exit, Option, Schema } from "effect"
import {
  Conflict,
  isApiError,
  statusOf,
  ValidationError
} from "@voice-agent-platform/contract/errors/ApiErrors.js"
import { CurrentOrganization } from "@voice-agent-platform/contract/middleware/Authentication.js"
import {
  IdempotencyKeyHeader,
  replayedHeader
} from "@voice-agent-platform/contract/idempotency/IdempotencyHeader.js"

/** The header, its schema and its documentation are part of the contract. */
export {
  document,
  IdempotencyKeyHeader,
  replayedHeader
} from "@voice-agent-platform/contract/idempotency/IdempotencyHeader.js"

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
