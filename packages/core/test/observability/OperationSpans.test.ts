import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Option } from "effect"
import * as OperationSpans from "../../src/observability/OperationSpans.js"
import * as SpanAttributes from "../../src/observability/SpanAttributes.js"
import { recordingTracer } from "./RecordingTracer.js"

/** An operation as the services define theirs: a generator body, the ids on its span by a pipeable. */
const lookUp = OperationSpans.fn("Example.lookUp")(function* (organizationId: number, name: string) {
  const span = yield* Effect.option(Effect.currentSpan)
  if (name === "missing") return yield* Effect.fail("not found" as const)
  return { organizationId, name, span: Option.map(span, (s) => s.name) }
}, SpanAttributes.organization)

describe("OperationSpans.fn", () => {
  it.effect("with tracing on, an operation is a span of its name, its pipeables inside it", () =>
    Effect.gen(function* () {
      const tracer = yield* recordingTracer
      const found = yield* tracer.recording(lookUp(7, "alice"))
      expect(found).toEqual({ organizationId: 7, name: "alice", span: Option.some("Example.lookUp") })
      const [span] = tracer.roots()
      expect(span?.name).toBe("Example.lookUp")
      expect(Object.fromEntries(span!.attributes)).toMatchObject({ organization_id: 7 })
      expect(span?.status._tag).toBe("Ended")
    })
  )

  it.effect("a failed span names where the operation is defined", () =>
    Effect.gen(function* () {
      const tracer = yield* recordingTracer
      const error = yield* tracer.recording(Effect.flip(lookUp(7, "missing")))
      expect(error).toBe("not found")
      const [span] = tracer.roots()
      expect(span?.status._tag === "Ended" && span.status.exit._tag).toBe("Failure")
      expect(String(span?.attributes.get("code.stacktrace"))).toContain("OperationSpans.test.ts")
    })
  )

  it.effect("with tracing off, no span is made and the span around is left alone", () =>
    Effect.gen(function* () {
      const tracer = yield* recordingTracer
      const found = yield* tracer.recording(
        Effect.withSpan("Outer.request")(Effect.withTracerEnabled(lookUp(7, "bob"), false))
      )
      // the operation ran inside the outer span, without one of its own, and set nothing on it
      expect(found.span).toEqual(Option.some("Outer.request"))
      expect(tracer.spans.map((span) => span.name)).toEqual(["Outer.request"])
      expect(tracer.spans[0]!.attributes.has("organization_id")).toBe(false)
    })
  )

  it.effect("a body that throws is a defect its pipeables still see, as with Effect.fn", () =>
    Effect.gen(function* () {
      const broken = OperationSpans.fn("Example.broken")((_n: number): Effect.Effect<number> => {
        throw new Error("broken")
      }, Effect.exit)
      const exit = yield* broken(1)
      expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
    })
  )

  it.effect("currentSpan is the operation's span while tracing is on, and none with it off", () =>
    Effect.gen(function* () {
      const tracer = yield* recordingTracer
      const seen = OperationSpans.fn("Example.seen")(function* () {
        return (yield* OperationSpans.currentSpan)?.name
      })
      expect(yield* tracer.recording(seen())).toBe("Example.seen")
      expect(yield* tracer.recording(Effect.withTracerEnabled(seen(), false))).toBeUndefined()
    })
  )

  it("keeps the body's arity and the operation's name, and passes `this` on", () => {
    expect(lookUp.length).toBe(2)
    expect(lookUp.name).toBe("Example.lookUp")
    const service = {
      prefix: "agent-",
      named: OperationSpans.fn("Example.named")(function* (this: { prefix: string }, id: number) {
        return `${this.prefix}${id}`
      })
    }
    expect(Effect.runSync(service.named(3))).toBe("agent-3")
  })
})
