import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, Metric } from "effect"
import * as CallEventsModule from "../../src/calls/CallEvents.js"
import { CallEvents } from "../../src/calls/CallEvents.js"
import { callsEnded } from "../../src/observability/OperationalEvents.js"
import { Transactions } from "../../src/storage/Transactions.js"
import { setup, testLayer } from "../webhooks/WebhookFixtures.js"

const endedCompleted = Metric.value(Metric.tagged(callsEnded, "status", "completed"))
const end = { type: "ended", status: "completed", duration_seconds: 30 } as const

describe("vap_calls_ended_total", () => {
  it.effect("counts an end once it is committed, never one whose transaction failed", () =>
    Effect.gen(function* () {
      const { organization, run } = yield* setup
      const before = (yield* endedCompleted).count
      // the same call events over transactions that fail after their body ran (a lost commit)
      const real = yield* Transactions
      const lostCommit = Layer.succeed(Transactions, {
        run: (effect) => Effect.zipRight(real.run(effect), Effect.die("commit lost"))
      })
      const failing = yield* Effect.exit(
        Effect.flatMap(CallEvents, (events) => events.report(organization.id, run.workflow_run_id, end)).pipe(
          Effect.provide(CallEventsModule.layer.pipe(Layer.provide(lostCommit)))
        )
      )
      expect(Exit.isFailure(failing)).toBe(true)
      expect((yield* endedCompleted).count).toBe(before)
      // a fresh run ended for real: counted once; its repeat (already ended) not again
      const { organization: other, run: second } = yield* setup
      const events = yield* CallEvents
      yield* events.report(other.id, second.workflow_run_id, end)
      yield* Effect.exit(events.report(other.id, second.workflow_run_id, end))
      expect((yield* endedCompleted).count).toBe(before + 1)
    }).pipe(Effect.provide(testLayer))
  )
})
