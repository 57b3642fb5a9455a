import { Effect, Option, Tracer } from "effect"

/** Every span started under `recording`, in order: the native tracer's spans, also kept here. */
export const recordingTracer = Effect.map(Effect.tracer, (native) => {
  const spans: Array<Tracer.Span> = []
  const tracer = Tracer.make({
    span: (...args) => {
      const span = native.span(...args)
      spans.push(span)
      return span
    },
    context: (f, fiber) => native.context(f, fiber)
  })
  const recording = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.withTracer(effect, tracer)
  /** The spans with no parent: each one trace an exporter would send. */
  const roots = () => spans.filter((span) => Option.isNone(span.parent))
  /** The names of the spans whose parent is `parent`. */
  const childrenOf = (parent: Tracer.Span) =>
    spans
      .filter((span) => Option.isSome(span.parent) && span.parent.value.spanId === parent.spanId)
      .map((span) => span.name)
  return { spans, recording, roots, childrenOf }
})
