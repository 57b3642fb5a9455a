import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Either, Fiber, Layer, Option, TestClock } from "effect"
import * as ChatTurns from "../../src/chat/ChatTurns.js"
import { InMemory } from "../../src/index.js"
import type { RunId } from "../../src/runs/RunId.js"
import { RunStore } from "../../src/runs/RunStore.js"
import * as Fixtures from "../../testing/Fixtures.js"

const layer = ChatTurns.layer.pipe(Layer.provideMerge(InMemory.layer))

/** A chat run of a new organization's agent. */
const chatRun = Effect.gen(function* () {
  const organization = yield* Fixtures.organization()
  const { agent } = yield* Fixtures.agent(organization.id)
  const runs = yield* RunStore
  return yield* runs.insert(Fixtures.newRun(organization.id, agent.id, { mode: "chat" }), Fixtures.epoch)
})

describe("ChatTurns.hold", () => {
  it.effect("gives each message the run as it is once its turn is held: changes made while it waited", () =>
    Effect.gen(function* () {
      const turns = yield* ChatTurns.ChatTurns
      const runs = yield* RunStore
      const run = yield* chatRun
      const holding = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      const first = yield* Effect.fork(
        turns.hold(run.organization_id, run.workflow_run_id, (held) =>
          Effect.zipRight(Deferred.succeed(holding, undefined), Effect.as(Deferred.await(release), held))
        )
      )
      yield* Deferred.await(holding)
      const second = yield* Effect.fork(turns.hold(run.organization_id, run.workflow_run_id, Effect.succeed))
      yield* runs.update(run.organization_id, run.workflow_run_id, { status: "in_progress" })
      expect(run.status).not.toBe("in_progress")
      yield* Deferred.succeed(release, undefined)
      expect((yield* Fiber.join(first)).status).toBe(run.status)
      expect((yield* Fiber.join(second)).status).toBe("in_progress")
    }).pipe(Effect.provide(layer))
  )

  it.effect("answers RunNotFound for a run that does not exist, or is another organization's", () =>
    Effect.gen(function* () {
      const turns = yield* ChatTurns.ChatTurns
      const run = yield* chatRun
      const other = yield* Fixtures.organization()
      for (const [organization, id] of [
        [run.organization_id, 999_999 as RunId],
        [other.id, run.workflow_run_id]
      ] as const) {
        const error = yield* Effect.flip(turns.hold(organization, id, Effect.succeed))
        expect(error._tag).toBe("RunNotFound")
      }
    }).pipe(Effect.provide(layer))
  )

  it.effect(
    "waits for a turn another server holds, looking again (backing off), until it is given back",
    () =>
      Effect.gen(function* () {
        const turns = yield* ChatTurns.ChatTurns
        const runs = yield* RunStore
        const run = yield* chatRun
        const far = new Date(Fixtures.epoch.getTime() + 10 * ChatTurns.leaseMillis)
        expect(
          Option.isSome(
            yield* runs.takeTurn(run.organization_id, run.workflow_run_id, "another server", far, new Date(0))
          )
        ).toBe(true)
        const waiting = yield* Effect.fork(
          turns.hold(run.organization_id, run.workflow_run_id, Effect.succeed)
        )
        yield* TestClock.adjust(ChatTurns.pollMillis * 3)
        expect(Option.isNone(yield* Fiber.poll(waiting))).toBe(true)
        // the other server gives it back: the next look (at most longestPollMillis later) takes it
        yield* runs.releaseTurn(run.organization_id, run.workflow_run_id, "another server")
        yield* TestClock.adjust(ChatTurns.longestPollMillis)
        const held = yield* Fiber.join(waiting)
        expect(held.workflow_run_id).toBe(run.workflow_run_id)
      }).pipe(Effect.provide(layer))
  )
})

describe("ChatTurns.hold, bounded", () => {
  it.effect(
    "passes over a held turn at once without waiting, and refuses a flood of messages to one chat",
    () =>
      Effect.gen(function* () {
        const turns = yield* ChatTurns.ChatTurns
        const runs = yield* RunStore
        const run = yield* chatRun
        const far = new Date(Fixtures.epoch.getTime() + 10 * ChatTurns.leaseMillis)
        yield* runs.takeTurn(run.organization_id, run.workflow_run_id, "another server", far, new Date(0))
        const busy = yield* Effect.either(
          turns.hold(run.organization_id, run.workflow_run_id, Effect.succeed, { wait: false })
        )
        expect(Either.isLeft(busy) && busy.left._tag).toBe("TurnBusy")
        // the waiters of one chat in this process are bounded: one more than maxWaiting is refused at once
        const waiting = yield* Effect.forEach(
          Array.from({ length: ChatTurns.maxWaiting }),
          () => Effect.fork(turns.hold(run.organization_id, run.workflow_run_id, Effect.succeed)),
          { concurrency: "unbounded" }
        )
        yield* TestClock.adjust(1)
        const extra = yield* Effect.either(
          turns.hold(run.organization_id, run.workflow_run_id, Effect.succeed)
        )
        expect(Either.isLeft(extra) && extra.left._tag).toBe("TurnBusy")
        // the wait ends in TurnBusy after waitMillis; and waiting can be stopped at any time
        yield* Fiber.interrupt(waiting[0]!)
        yield* TestClock.adjust(ChatTurns.waitMillis + ChatTurns.longestPollMillis)
        const ends = yield* Effect.forEach(waiting.slice(1), (fiber) => Effect.either(Fiber.join(fiber)))
        expect(ends.every((end) => Either.isLeft(end) && end.left._tag === "TurnBusy")).toBe(true)
      }).pipe(Effect.provide(layer))
  )
})
