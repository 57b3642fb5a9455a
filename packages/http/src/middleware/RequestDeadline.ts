import { HttpApiBuilder, HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { Fiber } from "effect"
import { Cause, Config, Context, Duration, Effect, Exit, FiberId, FiberRef, HashSet, Layer } from "effect"
import { IncomingMessage } from "node:http"

/** The default per-request deadline. */
export const defaultDeadline = Duration.seconds(30)

/**
 * How long a handler may take to produce its response (default 30 s; `Duration.infinity` turns the
 * deadline off). Provide it with `setting` to the API's layer.
 */
export class RequestDeadline extends Context.Reference<RequestDeadline>()(
  "@voice-agent-platform/http/RequestDeadline",
  { defaultValue: (): Duration.Duration => defaultDeadline }
) {}

/** The deadline set to this duration. */
export const setting = (deadline: Duration.DurationInput) =>
  Layer.succeed(RequestDeadline, Duration.decode(deadline))

/** `REQUEST_DEADLINE_SECONDS` (fractions allowed; default 30; 0 turns the deadline off). */
export const config: Config.Config<Duration.Duration> = Config.number("REQUEST_DEADLINE_SECONDS").pipe(
  Config.validate({
    message: "REQUEST_DEADLINE_SECONDS must be a number of seconds, 0 (no deadline) or more",
    validation: (n) => Number.isFinite(n) && n >= 0
  }),
  Config.map((n) => (n === 0 ? Duration.infinity : Duration.seconds(n))),
  Config.withDefault(defaultDeadline)
)

/** The answer to a request cut at its deadline. */
export const timedOut = (deadline: Duration.Duration) =>
  HttpServerResponse.unsafeJson(
    {
      detail: `The request took longer than ${Duration.toMillis(deadline) / 1000} s and was stopped; it may be retried (with the same Idempotency-Key for a call)`
    },
    { status: 503 }
  )

/** How often a body still arriving at the deadline is looked at again. */
const bodyPollMillis = 250

/**
 * Calls `onExpiry` when the deadline has passed, and answers how to cancel that. Time spent receiving
 * the request body does not count: a body still arriving is bounded by the server's request timeout
 * instead, and a handler that read its body gets the whole deadline after the last byte arrived (an
 * upload of a recording is not cut for being big). Real timers, never the `Clock` service: a test clock
 * moved forward must not cut requests.
 */
const watch = (deadlineMillis: number, body: IncomingMessage | undefined, onExpiry: () => void) => {
  const started = Date.now()
  // When the handler finished reading the body; unknown when it never read it.
  let bodyReadAt = body === undefined || body.complete ? started : undefined
  const onEnd = () => (bodyReadAt ??= Date.now())
  body?.once("end", onEnd)
  let timer: ReturnType<typeof setTimeout>
  const check = () => {
    if (body !== undefined && !body.complete) {
      timer = setTimeout(check, bodyPollMillis)
      return
    }
    const due = Math.max(started, bodyReadAt ?? started) + deadlineMillis
    const now = Date.now()
    if (now >= due) onExpiry()
    else timer = setTimeout(check, due - now)
  }
  timer = setTimeout(check, deadlineMillis)
  return () => {
    clearTimeout(timer)
    body?.off("end", onEnd)
  }
}

/**
 * What a handler leaves on its fiber that the response still needs, taken over by the request's fiber
 * when the handler ends: the pre-response handlers (headers, cookies a handler added to its answer) and
 * log annotations it set for the rest of the request. Only these: joining every fiber-local value
 * (`Fiber.inheritAll`) compares the whole service context entry by entry, on every request. Any other
 * fiber reference a handler sets on its own fiber (`FiberRef.set`/`update`/`locallyScoped` of a custom
 * `FiberRef`, the minimum log level, …) is NOT carried back to the request's fiber: what the
 * middlewares after the handler need from it must travel by these two or by the response itself.
 */
const takeOver = (handler: Fiber.RuntimeFiber<unknown, unknown>): Effect.Effect<void> =>
  Effect.withFiberRuntime((fiber) => {
    const handlers = handler.getFiberRef(HttpApp.currentPreResponseHandlers)
    const annotations = handler.getFiberRef(FiberRef.currentLogAnnotations)
    const setHandlers =
      handlers === fiber.getFiberRef(HttpApp.currentPreResponseHandlers)
        ? Effect.void
        : FiberRef.set(HttpApp.currentPreResponseHandlers, handlers)
    return annotations === fiber.getFiberRef(FiberRef.currentLogAnnotations)
      ? setHandlers
      : Effect.zipRight(setHandlers, FiberRef.set(FiberRef.currentLogAnnotations, annotations))
  })

/**
 * Bounds an app by the deadline: past it, the handler is interrupted in the background (a transaction
 * rolls back; an uninterruptible step, such as handing a call to the voice runtime, completes) and the
 * request is answered 503 `{detail}` at once. Only producing the response counts: a response already
 * streaming (a file download) is written by the server after this and is never cut by it.
 *
 * The platform runs each request uninterruptibly (a client hanging up does not stop its handler); the
 * handler runs in a fiber of its own that only the deadline interrupts, so that stays as it was.
 */
export const within = (app: HttpApp.Default, deadline: Duration.Duration): HttpApp.Default =>
  Duration.isFinite(deadline)
    ? Effect.withFiberRuntime<
        HttpServerResponse.HttpServerResponse,
        never,
        HttpServerRequest.HttpServerRequest
      >((fiber) => {
        const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
        return Effect.flatMap(Effect.forkDaemon(Effect.interruptible(app)), (handler) =>
          Effect.flatten(
            Effect.async<HttpApp.Default>((resumeOnce) => {
              let resumed = false
              const resume = (next: Effect.Effect<HttpApp.Default>) => {
                if (resumed) return
                resumed = true
                resumeOnce(next)
              }
              const body = request.source instanceof IncomingMessage ? request.source : undefined
              const cancel = watch(Math.max(1, Duration.toMillis(deadline)), body, () => {
                handler.unsafeInterruptAsFork(handler.id())
                resume(
                  Effect.logWarning("Request stopped at its deadline").pipe(
                    // the path only: a query string may carry a download link's signature
                    Effect.annotateLogs({ method: request.method, path: request.url.split("?")[0] }),
                    Effect.as(timedOut(deadline))
                  )
                )
              })
              handler.addObserver((exit) => {
                cancel()
                // what the handler set on its fiber (pre-response handlers, log annotations) applies as before
                resume(Effect.as(takeOver(handler), exit))
              })
            })
          )
        )
      })
    : app

/** Who interrupts a handler at its deadline (in the request's own fiber, `withinFiber`). */
const deadlineFiberId = FiberId.make(-28, 0)

/**
 * The deadline for a request whose fiber runs uninterruptibly but for the app (the direct routes, which
 * run a request in one fiber): the app is made interruptible and runs in the request's fiber, and past
 * the deadline it is interrupted and the request answered 503 `{detail}`, once the app has stopped: at
 * once, unless it is inside an uninterruptible step (a transaction's rollback waits for the statement in
 * flight, bounded by `DATABASE_STATEMENT_TIMEOUT_MS`). No second fiber, which is most of what `within`
 * costs a request. A client going away (its interruption) still ends the request as one.
 */
export const withinFiber = (app: HttpApp.Default, deadline: Duration.Duration): HttpApp.Default =>
  Effect.withFiberRuntime<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest>(
    (fiber) => {
      if (!Duration.isFinite(deadline)) return Effect.interruptible(app)
      const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
      const body = request.source instanceof IncomingMessage ? request.source : undefined
      let expired = false
      const cancel = watch(Math.max(1, Duration.toMillis(deadline)), body, () => {
        expired = true
        fiber.unsafeInterruptAsFork(deadlineFiberId)
      })
      return Effect.flatMap(Effect.exit(Effect.interruptible(app)), (exit) => {
        cancel()
        // the deadline's interruption, whatever else the handler's end held (a finalizer failing as it stopped)
        if (Exit.isSuccess(exit) || !expired) return exit
        if (!HashSet.has(Cause.interruptors(exit.cause), deadlineFiberId)) return exit
        return Effect.logWarning("Request stopped at its deadline").pipe(
          // the path only: a query string may carry a download link's signature
          Effect.annotateLogs({ method: request.method, path: request.url.split("?")[0] }),
          Effect.as(timedOut(deadline))
        )
      })
    }
  )

/** `withinFiber` as a middleware, reading `RequestDeadline` where the API is built (the direct routes'). */
export const middlewareInFiber: Effect.Effect<(app: HttpApp.Default) => HttpApp.Default> = Effect.map(
  RequestDeadline,
  (deadline) => (app: HttpApp.Default) => withinFiber(app, deadline)
)

/**
 * The deadline as an API middleware, reading `RequestDeadline` where the API is built. Registered before
 * the response shaping middleware, it runs inside it: its 503 gets `X-Request-Id` like every answer.
 */
export const middleware: Effect.Effect<(app: HttpApp.Default) => HttpApp.Default> = Effect.map(
  RequestDeadline,
  (deadline) => (app: HttpApp.Default) => within(app, deadline)
)

/** `middleware` registered as an API middleware of its own (`AppLayer` composes it with the others instead). */
export const layer = HttpApiBuilder.middleware(middleware)
