import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Option, Stream } from "effect"
import { withOperationSpans } from "../../src/observability/OperationSpans.js"

/** The name of the span an effect runs in, or none. */
const currentSpanName = Effect.map(
  Effect.option(Effect.currentSpan),
  Option.map((span) => span.name)
)

describe("withOperationSpans", () => {
  const service = withOperationSpans("Example", {
    find: (id: number) => Effect.map(currentSpanName, (span) => ({ id, span })),
    fail: () => Effect.fail("refused" as const),
    stream: () => Stream.fromEffect(currentSpanName),
    sweep: currentSpanName,
    pure: (n: number) => n + 1,
    lookup: (n: number) => Option.some(n),
    limit: 10
  })

  it.effect("runs an effect-answering method inside a span named Service.operation", () =>
    Effect.gen(function* () {
      expect(yield* service.find(7)).toEqual({ id: 7, span: Option.some("Example.find") })
      expect(yield* service.sweep).toEqual(Option.some("Example.sweep"))
    })
  )

  it.effect("keeps a method's failure as it was", () =>
    Effect.gen(function* () {
      expect(yield* Effect.flip(service.fail())).toBe("refused")
    })
  )

  it.effect("gives a stream its span while it is pulled", () =>
    Effect.gen(function* () {
      const names = yield* Stream.runCollect(service.stream())
      expect(Chunk.toReadonlyArray(names)).toEqual([Option.some("Example.stream")])
    })
  )

  it("leaves pure methods, Options and constants as they are", () => {
    expect(service.pure(1)).toBe(2)
    expect(service.lookup(3)).toEqual(Option.some(3))
    expect(service.limit).toBe(10)
  })

  it.effect("marks the span failed when the operation fails", () =>
    Effect.gen(function* () {
      const traced = withOperationSpans("Example", {
        failing: () => Effect.flatMap(Effect.currentSpan, (span) => Effect.fail(span))
      })
      const span = yield* Effect.flip(traced.failing())
      expect(span._tag === "Span" && span.name).toBe("Example.failing")
      expect(span._tag === "Span" && span.status._tag).toBe("Ended")
      expect(span._tag === "Span" && span.status._tag === "Ended" && span.status.exit._tag).toBe("Failure")
    })
  )
})
