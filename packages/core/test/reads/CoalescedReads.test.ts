import { describe, expect, it } from "@effect/vitest"
import {
  Cause,
  Context,
  Deferred,
  Effect,
  Exit,
  FastCheck,
  Fiber,
  FiberId,
  FiberRef,
  HashMap,
  Option
} from "effect"
import * as CoalescedReads from "../../src/reads/CoalescedReads.js"
import { harness, type Outcome, settle, waitingFor } from "./ReadsHarness.js"

const together = <A, E>(effects: ReadonlyArray<Effect.Effect<A, E>>) =>
  Effect.fork(Effect.all(effects, { concurrency: "unbounded" }))

describe("CoalescedReads", () => {
  it.effect(
    "callers that ask before the read starts share it; later ones share the next, which sees their writes",
    () =>
      Effect.gen(function* () {
        const h = harness()
        const first = yield* together([h.read("k"), h.read("k"), h.read("k")])
        yield* settle
        expect(h.started()).toBe(1)
        // A write committed while the read is under way, then two callers: they must see it.
        h.write("k")
        const later = yield* together([h.read("k"), h.read("k")])
        yield* settle
        expect(h.started()).toBe(1)
        expect(yield* h.end("k")).toBe(true)
        expect(yield* Fiber.join(first)).toEqual([0, 0, 0])
        yield* settle
        expect(h.started()).toBe(2)
        expect(yield* h.end("k")).toBe(true)
        expect(yield* Fiber.join(later)).toEqual([1, 1])
        yield* settle
        expect(h.overlapping()).toBe(0)
        expect(h.reads.keys()).toBe(0)
      })
  )

  it.effect("callers arriving in one turn of the event loop share a read that never yields to it", () =>
    Effect.gen(function* () {
      const reads = CoalescedReads.make<number, never>()
      let started = 0
      const read = Effect.sync(() => ++started)
      // Three callers, each from its own callback of one event loop phase, as a server's requests are
      // parsed from its sockets' data: the read, synchronous here (the embedded database runs in
      // process), must wait for the phase's end, else each caller would begin and end a read alone.
      const fibers = yield* Effect.async<ReadonlyArray<Fiber.RuntimeFiber<number>>>((resume) => {
        const forked: Array<Fiber.RuntimeFiber<number>> = []
        for (let i = 0; i < 3; i++)
          setImmediate(() => {
            forked.push(Effect.runFork(reads.read("k", read)))
            if (forked.length === 3) resume(Effect.succeed(forked))
          })
      })
      expect(yield* Effect.all(fibers.map(Fiber.join))).toEqual([1, 1, 1])
      expect(started).toBe(1)
    })
  )

  it.effect(
    "a caller nobody joins reads in its own fiber, as without coalescing, and its next caller reads again",
    () =>
      Effect.gen(function* () {
        const reads = CoalescedReads.make<FiberId.FiberId, never>()
        const caller = yield* Effect.fiberId
        expect(yield* reads.read("k", Effect.fiberId)).toEqual(caller)
        expect(reads.keys()).toBe(0)
        expect(yield* reads.read("k", Effect.fiberId)).toEqual(caller)
        expect(reads.keys()).toBe(0)
      })
  )

  it.effect("never shares between keys", () =>
    Effect.gen(function* () {
      const h = harness()
      h.write("organization 2/page 1")
      const both = yield* together([h.read("organization 1/page 1"), h.read("organization 2/page 1")])
      yield* settle
      expect(h.started()).toBe(2)
      yield* h.end("organization 1/page 1")
      yield* h.end("organization 2/page 1")
      expect(yield* Fiber.join(both)).toEqual([0, 1])
      expect(h.reads.keys()).toBe(0)
    })
  )

  it.effect("a failed read fails its whole batch with the same error, and the next caller reads again", () =>
    Effect.gen(function* () {
      const h = harness()
      const batch = yield* together([h.read("k"), h.read("k")].map(Effect.exit))
      yield* settle
      yield* h.end("k", "fail")
      expect(yield* Fiber.join(batch)).toEqual([Exit.fail("failed at 0"), Exit.fail("failed at 0")])
      const again = yield* Effect.fork(h.read("k"))
      yield* settle
      expect(h.started()).toBe(2)
      yield* h.end("k")
      expect(yield* Fiber.join(again)).toBe(0)
    })
  )

  it.effect("a read that dies hands every caller of its batch the same defect", () =>
    Effect.gen(function* () {
      const h = harness()
      const batch = yield* together([h.read("k"), h.read("k")].map(Effect.exit))
      yield* settle
      yield* h.end("k", "die")
      const defects = (yield* Fiber.join(batch)).map((exit) =>
        Exit.isFailure(exit) ? Option.getOrUndefined(Cause.dieOption(exit.cause)) : undefined
      )
      expect(defects[0]).toBeInstanceOf(Error)
      expect(defects[1]).toBe(defects[0])
      expect(h.reads.keys()).toBe(0)
    })
  )

  it.effect("a caller that goes away stops waiting; the read goes on for the others", () =>
    Effect.gen(function* () {
      const h = harness()
      const opener = yield* Effect.fork(h.read("k"))
      const stays = yield* Effect.fork(h.read("k"))
      yield* settle
      const other = yield* Effect.fork(h.read("k"))
      const third = yield* Effect.fork(h.read("k"))
      yield* waitingFor(h.reads, "k", 4)
      yield* Fiber.interrupt(opener)
      yield* settle
      expect(h.underWay("k")).toBe(1)
      yield* h.end("k")
      expect(yield* Fiber.join(stays)).toBe(0)
      yield* settle
      // The next batch's read (its fiber forked by the first batch's) is not stopped by one caller leaving.
      expect(h.started()).toBe(2)
      yield* Fiber.interrupt(other)
      yield* settle
      expect(h.underWay("k")).toBe(1)
      yield* h.end("k")
      expect(yield* Fiber.join(third)).toBe(0)
      yield* settle
      expect(h.interrupted()).toBe(0)
      expect(h.reads.keys()).toBe(0)
    })
  )

  it.effect("a batch whose callers all went away before its turn is dropped unread", () =>
    Effect.gen(function* () {
      const h = harness()
      const first = yield* Effect.fork(h.read("k"))
      yield* settle
      const gone = yield* Effect.fork(h.read("k"))
      yield* settle
      yield* Fiber.interrupt(gone)
      yield* h.end("k")
      expect(yield* Fiber.join(first)).toBe(0)
      yield* settle
      expect(h.started()).toBe(1)
      expect(h.reads.keys()).toBe(0)
    })
  )

  it.effect("a batch whose only caller went away before its read began is not read", () =>
    Effect.gen(function* () {
      // the batch's turn comes only when the test says so
      const turn = Deferred.unsafeMake<void>(FiberId.none)
      const h = harness({ nextTurn: Deferred.await(turn) })
      const gone = yield* Effect.fork(h.read("k"))
      yield* waitingFor(h.reads, "k", 1)
      expect(h.reads.keys()).toBe(1)
      yield* Fiber.interrupt(gone)
      expect(h.reads.waiting("k")).toBe(0)
      yield* Deferred.succeed(turn, undefined)
      yield* settle
      expect(h.started()).toBe(0)
      expect(h.reads.keys()).toBe(0)
    })
  )

  it.effect("counts the callers waiting for a key, in the batch under way and the next", () =>
    Effect.gen(function* () {
      const h = harness()
      const first = yield* together([h.read("k"), h.read("k")])
      yield* waitingFor(h.reads, "k", 2)
      yield* settle
      const next = yield* together([h.read("k"), h.read("k"), h.read("k")])
      yield* waitingFor(h.reads, "k", 5)
      expect(h.reads.waiting("other")).toBe(0)
      yield* h.end("k")
      expect(yield* Fiber.join(first)).toEqual([0, 0])
      yield* waitingFor(h.reads, "k", 3)
      yield* settle
      yield* h.end("k")
      expect(yield* Fiber.join(next)).toEqual([0, 0, 0])
      expect(h.reads.waiting("k")).toBe(0)
    })
  )

  it.effect(
    "a read under way is interrupted when its last caller goes away; the next batch still reads",
    () =>
      Effect.gen(function* () {
        const h = harness()
        const callers = yield* together([h.read("k"), h.read("k")])
        yield* settle
        expect(h.underWay("k")).toBe(1)
        const later = yield* Effect.fork(h.read("k"))
        yield* waitingFor(h.reads, "k", 3)
        yield* Fiber.interrupt(callers)
        yield* settle
        // nobody was left to answer: the read stopped, and the next batch's began
        expect(h.interrupted()).toBe(1)
        expect(h.started()).toBe(2)
        expect(h.underWay("k")).toBe(1)
        h.write("k")
        yield* h.end("k")
        expect(yield* Fiber.join(later)).toBe(0)
        // alone, the last caller's leaving stops the read and removes the key
        const alone = yield* Effect.fork(h.read("k"))
        yield* settle
        expect(h.underWay("k")).toBe(1)
        yield* Fiber.interrupt(alone)
        yield* settle
        expect(h.interrupted()).toBe(2)
        expect(h.underWay("k")).toBe(0)
        expect(h.reads.keys()).toBe(0)
        expect(h.overlapping()).toBe(0)
      })
  )

  it.effect("a caller that finds its batch full reads alone", () =>
    Effect.gen(function* () {
      const h = harness({ maxBatch: 2 })
      const callers = yield* together([h.read("k"), h.read("k"), h.read("k")])
      yield* settle
      expect(h.started()).toBe(2)
      while ((yield* h.end("k")) === true) yield* settle
      expect(yield* Fiber.join(callers)).toEqual([0, 0, 0])
    })
  )

  it.effect("a batch reads with the fiber-local values of the caller that opened it", () =>
    Effect.gen(function* () {
      const reads = CoalescedReads.make<string, never>()
      const who = FiberRef.unsafeMake("nobody")
      const gate = Deferred.unsafeMake<void>(FiberId.none)
      const read = Effect.zipRight(Deferred.await(gate), FiberRef.get(who))
      const first = yield* Effect.fork(Effect.locally(reads.read("k", read), who, "first"))
      yield* settle
      const second = yield* Effect.fork(Effect.locally(reads.read("k", FiberRef.get(who)), who, "second"))
      yield* Effect.fork(Effect.locally(reads.read("k", FiberRef.get(who)), who, "third"))
      yield* settle
      yield* Deferred.succeed(gate, undefined)
      expect(yield* Fiber.join(first)).toBe("first")
      expect(yield* Fiber.join(second)).toBe("second")
    })
  )

  it.effect("a batch reads with its opener's services but not its request's log annotations", () =>
    Effect.gen(function* () {
      class Greeting extends Context.Tag("Greeting")<Greeting, string>() {}
      const reads = CoalescedReads.make<readonly [string, Record<string, unknown>], never>()
      const gate = Deferred.unsafeMake<void>(FiberId.none)
      const read = Effect.zipRight(
        Deferred.await(gate),
        Effect.zip(
          Greeting,
          Effect.map(FiberRef.get(FiberRef.currentLogAnnotations), (a) => Object.fromEntries(a))
        )
      )
      const asked = (requestId: string) =>
        reads
          // the read finds `Greeting` in the context of the caller that opened its batch
          .read("k", read as unknown as Effect.Effect<readonly [string, Record<string, unknown>]>)
          .pipe(Effect.annotateLogs("request_id", requestId), Effect.provideService(Greeting, "hello"))
      const both = yield* together([asked("first"), asked("second")])
      yield* settle
      yield* Deferred.succeed(gate, undefined)
      const [first, second] = yield* Fiber.join(both)
      expect(first).toEqual(["hello", { shared_by: 2 }])
      expect(second).toBe(first)
      // the callers' own annotations are untouched
      expect(HashMap.size(yield* FiberRef.get(FiberRef.currentLogAnnotations))).toBe(0)
    })
  )

  // Any interleaving of callers asking, writes, reads ending (answer, failure, defect) and callers going
  // away: every caller still waiting at the end gets an answer from a read that started after it asked
  // (its version or a later one), never two reads of one key at once, at most one read per caller, and
  // nothing is left behind.
  const key = FastCheck.constantFrom("a", "b", "c")
  const operation = FastCheck.oneof(
    FastCheck.record({ kind: FastCheck.constant("ask" as const), key }),
    FastCheck.record({ kind: FastCheck.constant("write" as const), key }),
    FastCheck.record({
      kind: FastCheck.constant("end" as const),
      key,
      outcome: FastCheck.constantFrom<Outcome>("answer", "answer", "fail", "die")
    }),
    FastCheck.record({ kind: FastCheck.constant("leave" as const), caller: FastCheck.nat(30) })
  )

  it.effect("answers every caller from a read that started after it asked", () =>
    Effect.promise(() =>
      FastCheck.assert(
        FastCheck.asyncProperty(FastCheck.array(operation, { maxLength: 40 }), (ops) =>
          Effect.runPromise(
            Effect.gen(function* () {
              const h = harness()
              const callers: Array<{
                readonly key: string
                readonly asked: number
                readonly fiber: Fiber.RuntimeFiber<number, string>
              }> = []
              for (const op of ops) {
                if (op.kind === "ask")
                  callers.push({
                    key: op.key,
                    asked: h.version(op.key),
                    fiber: yield* Effect.fork(h.read(op.key))
                  })
                else if (op.kind === "write") h.write(op.key)
                else if (op.kind === "end") yield* h.end(op.key, op.outcome)
                else if (callers[op.caller] !== undefined) yield* Fiber.interrupt(callers[op.caller]!.fiber)
                yield* settle
              }
              for (let round = 0; round < 2 * callers.length + 2; round++) {
                for (const k of ["a", "b", "c"]) yield* h.end(k)
                yield* settle
              }
              for (const caller of callers) {
                const exit = yield* Fiber.await(caller.fiber)
                if (Exit.isSuccess(exit)) expect(exit.value).toBeGreaterThanOrEqual(caller.asked)
                else if (!Exit.isInterrupted(exit)) {
                  const error = Cause.squash(exit.cause)
                  const version = Number(
                    /at (\d+)/.exec(String(error instanceof Error ? error.message : error))![1]
                  )
                  expect(version).toBeGreaterThanOrEqual(caller.asked)
                }
              }
              expect(h.overlapping()).toBe(0)
              expect(h.started()).toBeLessThanOrEqual(callers.length)
              expect(h.reads.keys()).toBe(0)
            })
          )
        )
      )
    )
  )
})
