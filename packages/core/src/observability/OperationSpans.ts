import { Cause, Clock, Context, Effect, type Exit, FiberRef, Tracer } from "effect"
import { isGeneratorFunction } from "effect/Utils"

/**
 * `Effect.fn(name)` for the engine's operations (core services, storage, HTTP handlers), with the span
 * made only while tracing is on. `OperationSpans.fn("Runs.list")(body, ...pipeables)` types and behaves
 * as `Effect.fn("Runs.list")(body, ...pipeables)`: the pipeables (`SpanAttributes`) run inside the span,
 * a failed span gets `code.stacktrace`. With tracing off (`Layer.setTracerEnabled(false)`, the bundled
 * server's default without `OTEL_EXPORTER_OTLP_ENDPOINT`), the operation runs as `Effect.fnUntraced`:
 * no span and no call-site stack capture. `Effect.fn` makes both on every call whatever the tracer —
 * a no-op span provided into a copy of the fiber's context, and a `new Error()` — which cost 40–80 µs a
 * call in a loaded server (docs/performance.md, "Operations' spans only while tracing is on").
 *
 * The one difference from `Effect.fn`: the span's stack trace names where the operation is defined, not
 * where it was called (a call site is known only by capturing it on every call, before the fiber says
 * whether tracing is on).
 */
export const fn = (name: string, options?: Tracer.SpanOptions): Effect.fn.Gen & Effect.fn.NonGen => {
  const definedAt = definitionSite()
  // `captureStackTrace: true` asks for the call site, which is not captured: the definition site stands in
  const spanOptions: Tracer.SpanOptions = {
    ...options,
    captureStackTrace:
      options?.captureStackTrace === undefined || options.captureStackTrace === true
        ? definedAt
        : options.captureStackTrace
  }
  const make = (body: Function, ...pipeables: Array<Function>) => {
    const operation = function (this: unknown, ...args: Array<unknown>) {
      const effect = applied(body, pipeables, this, args)
      return Effect.withFiberRuntime<unknown, unknown, unknown>((fiber) =>
        fiber.getFiberRef(FiberRef.currentTracerEnabled) ? Effect.withSpan(effect, name, spanOptions) : effect
      )
    }
    // as `Effect.fn` does: the function reports its body's arity and the operation's name
    Object.defineProperty(operation, "length", { value: body.length, configurable: true })
    Object.defineProperty(operation, "name", { value: name, configurable: true })
    return operation
  }
  return make as unknown as Effect.fn.Gen & Effect.fn.NonGen
}

/**
 * The operation's effect for one call, as `Effect.fn` makes it: a generator body runs as `Effect.gen`
 * each time the effect runs; any other body is called now and its effect (or, for a transpiled
 * generator, its iterator) used, a throw becoming a defect; then each pipeable, given the effect and the
 * call's arguments (a pipeable that throws too: both defects, in order).
 */
const applied = (
  body: Function,
  pipeables: ReadonlyArray<Function>,
  self: unknown,
  args: Array<unknown>
): Effect.Effect<unknown, unknown, unknown> => {
  let effect: Effect.Effect<unknown, unknown, unknown>
  let thrown: { readonly error: unknown } | undefined
  if (isGeneratorFunction(body)) {
    effect = Effect.gen(() => body.apply(self, args))
  } else {
    try {
      const result = body.apply(self, args)
      if (Effect.isEffect(result)) {
        effect = result
      } else {
        let first = true
        effect = Effect.gen(() => {
          if (!first) return body.apply(self, args)
          first = false
          return result
        })
      }
    } catch (error) {
      thrown = { error }
      effect = Effect.die(error)
    }
  }
  if (pipeables.length > 0) {
    try {
      for (const pipeable of pipeables) effect = pipeable(effect, ...args)
    } catch (error) {
      effect =
        thrown === undefined
          ? Effect.die(error)
          : Effect.failCause(Cause.sequential(Cause.die(thrown.error), Cause.die(error)))
    }
  }
  return effect
}

/**
 * Where `fn` was called to define an operation, formatted only when a span ends failed: the third frame
 * of a three-frame stack (`definitionSite`, `fn`, then `fn`'s caller).
 */
const definitionSite = (): (() => string | undefined) => {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 3
  const error = new Error()
  Error.stackTraceLimit = limit
  let formatted: string | undefined | false = false
  return () => {
    if (formatted === false) {
      const lines = error.stack?.trim().split("\n") ?? []
      formatted = lines.slice(3).join("\n").trim() || undefined
    }
    return formatted
  }
}

/**
 * The span the current operation runs in while tracing is on, else undefined: what `Effect.currentSpan`
 * would answer, without the `NoSuchElementException` (a stack trace) it builds when there is none, as
 * there is none with tracing off.
 */
export const currentSpan: Effect.Effect<Tracer.Span | undefined> = Effect.withFiberRuntime((fiber) => {
  if (!fiber.getFiberRef(FiberRef.currentTracerEnabled)) return Effect.succeed(undefined)
  const span = Context.getOption(fiber.currentContext, Tracer.ParentSpan)
  return Effect.succeed(span._tag === "Some" && span.value._tag === "Span" ? span.value : undefined)
})

/**
 * A span begun now while tracing is on (`Effect.makeSpan`: a child of the current span), else undefined;
 * `endSpan` ends it. For a span annotated through itself rather than run inside (a stream's life: run
 * inside `Stream.withSpan`, every element switches the context there and back).
 */
export const makeSpan = (
  name: string,
  options?: Tracer.SpanOptions
): Effect.Effect<Tracer.Span | undefined> =>
  Effect.withFiberRuntime((fiber) =>
    fiber.getFiberRef(FiberRef.currentTracerEnabled)
      ? Effect.makeSpan(name, options)
      : Effect.succeed(undefined)
  )

/** Ends a span of `makeSpan` (if there is one) with `exit`, now. */
export const endSpan = (
  span: Tracer.Span | undefined,
  exit: Exit.Exit<unknown, unknown>
): Effect.Effect<void> =>
  span === undefined
    ? Effect.void
    : Effect.flatMap(Clock.currentTimeNanos, (now) => Effect.sync(() => span.end(now, exit)))
