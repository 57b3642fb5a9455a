import { Context, Effect, Either, Exit, Option, Stream } from "effect"

/**
 * Gives every operation of a service its tracing span, named `Service.operation` (`CarrierCallbacks.answer`).
 * Applied once where a layer builds its service object: `withOperationSpans("CarrierCallbacks", { answer })`.
 *
 * On its way out: services name their spans with `Effect.fn("Service.operation")` (docs/decisions.md, "One
 * tracing idiom"); only `voice/CarrierCallbacks` still uses this, and it goes with that file's move.
 *
 * - a method answering an `Effect` runs inside `Effect.withSpan` (its failures and defects mark the span);
 * - a method answering a `Stream` gets `Stream.withSpan`: the span covers pulling the stream, from its
 *   first element to its end, not the call that merely describes it;
 * - an `Effect` held as a property (an operation without arguments) is wrapped the same way;
 * - anything else (pure functions, constants) is left as it is. Values that are Effects only to be
 *   yielded (an `Option`, `Either`, `Exit`, error instance or service tag a pure method answers) are
 *   not operations and are left as they are too.
 *
 * With no tracer installed (the default server without `OTEL_EXPORTER_OTLP_ENDPOINT` turns tracing off)
 * a span is a no-op, so this costs next to nothing there.
 */
export const withOperationSpans = <Service extends object>(service: string, operations: Service): Service => {
  const traced: Record<string, unknown> = {}
  for (const [operation, value] of Object.entries(operations)) {
    traced[operation] = traceOperation(`${service}.${operation}`, value)
  }
  return traced as Service
}

/** An effect that does work when run, as opposed to a value that merely can be yielded like one. */
const isOperation = (value: unknown): value is Effect.Effect<unknown, unknown, unknown> =>
  Effect.isEffect(value) &&
  !Option.isOption(value) &&
  !Either.isEither(value) &&
  !Exit.isExit(value) &&
  !Context.isTag(value) &&
  !(value instanceof Error)

/** No stack trace is taken for a span: capturing one per call costs more than the span itself. */
const spanOptions = { captureStackTrace: false } as const

const traceOperation = (name: string, value: unknown): unknown => {
  if (isOperation(value)) return Effect.withSpan(value, name, spanOptions)
  if (typeof value !== "function") return value
  const method = value as (...args: ReadonlyArray<unknown>) => unknown
  return (...args: ReadonlyArray<unknown>) => {
    const result = method(...args)
    if (isOperation(result)) return Effect.withSpan(result, name, spanOptions)
    // every Effect (an Option too) also counts as a Stream: only a stream that is not one is a stream
    if (Stream.StreamTypeId in Object(result) && !Effect.isEffect(result))
      return Stream.withSpan(result as Stream.Stream<unknown>, name, spanOptions)
    return result
  }
}
