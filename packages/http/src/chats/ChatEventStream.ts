import { HttpServerResponse } from "@effect/platform"
import type { Chats } from "@voice-agent-platform/core"
import { Cause, Effect, Exit, Option, Queue, Scope, Stream } from "effect"
import { isApiError, statusOf } from "@voice-agent-platform/contract/errors/ApiErrors.js"

/**
 * A chat reply as server-sent events (`text/event-stream`): `delta` and `tool_call` events as the reply is
 * made, then one `done` with the whole answer. The reply starts before the response does: a failure before
 * its first event is the request's failure (a proper status: 404, 409, 503 with `Retry-After`); a failure
 * after it is one `error` event (`{status, detail}`), the stream's end. A client that goes away stops the
 * reply (nothing of its message is kept).
 */

/** One event as the wire carries it. */
export const encode = (event: string, data: unknown): Uint8Array =>
  new TextEncoder().encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)

/** What the reply's fiber hands the stream. */
type Item<A, E> =
  | { readonly _tag: "Event"; readonly event: Chats.ChatEvent }
  | { readonly _tag: "Exit"; readonly exit: Exit.Exit<A, E> }

/**
 * An error as an `error` event's data: an API error's status and detail (and `retry_after`, the seconds a
 * `Retry-After` header would say), anything else a 500.
 */
const errorData = (cause: Cause.Cause<unknown>) => {
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure) && isApiError(failure.value)) {
    const { detail, retryAfterSeconds } = failure.value as {
      readonly detail: unknown
      readonly retryAfterSeconds?: number | null
    }
    return {
      status: statusOf(failure.value),
      detail,
      ...(typeof retryAfterSeconds === "number" ? { retry_after: retryAfterSeconds } : {})
    }
  }
  return { status: 500, detail: "The reply failed with an internal error" }
}

/** Headers that keep proxies from buffering or caching the stream. */
const streamHeaders = { "cache-control": "no-cache", "x-accel-buffering": "no" }

/**
 * Runs `reply` (which tells `emit` what happens) and answers the response: the events as they come, or
 * the reply's failure when it fails before its first event. `done` renders the whole answer.
 */
export const respond = <A, E, R>(
  reply: (emit: (event: Chats.ChatEvent) => Effect.Effect<void>) => Effect.Effect<A, E, R>,
  done: (answer: A) => unknown
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R> =>
  Effect.gen(function* () {
    const items = yield* Queue.unbounded<Item<A, E>>()
    // the reply outlives this handler (the stream is read after it answers): it lives in a scope the
    // stream closes when it ends, fails or is dropped by the client
    const scope = yield* Scope.make()
    yield* reply((event) => Queue.offer(items, { _tag: "Event", event })).pipe(
      Effect.onExit((exit) => Queue.offer(items, { _tag: "Exit", exit })),
      Effect.forkIn(scope)
    )
    // the handler stopped while waiting (its deadline, the server shutting down): the reply stops with it,
    // before it keeps anything
    const first = yield* Queue.take(items).pipe(Effect.onInterrupt(() => Scope.close(scope, Exit.void)))
    if (first._tag === "Exit" && Exit.isFailure(first.exit)) {
      yield* Scope.close(scope, Exit.void)
      return yield* Effect.failCause(first.exit.cause)
    }
    const toBytes = (item: Item<A, E>): Uint8Array =>
      item._tag === "Event"
        ? item.event._tag === "Delta"
          ? encode("delta", { text: item.event.text })
          : encode("tool_call", item.event.call)
        : Exit.isSuccess(item.exit)
          ? encode("done", done(item.exit.value))
          : encode("error", errorData(item.exit.cause))
    const rest = Stream.fromQueue(items).pipe(Stream.takeUntil((item) => item._tag === "Exit"))
    const body = (first._tag === "Exit" ? Stream.make(first) : Stream.concat(Stream.make(first), rest)).pipe(
      Stream.map(toBytes),
      Stream.ensuring(Scope.close(scope, Exit.void))
    )
    return HttpServerResponse.stream(body, {
      contentType: "text/event-stream; charset=utf-8",
      headers: streamHeaders
    })
  })
