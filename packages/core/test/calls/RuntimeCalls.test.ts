import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
import { CallPlacement } from "../../src/calls/CallPlacement.js"
import { RuntimeCalls } from "../../src/calls/RuntimeCalls.js"
import { RunId } from "../../src/runs/RunId.js"
import { RunStore } from "../../src/runs/RunStore.js"
import { engine, organizationWithAgent, setNow } from "../services/Engine.js"

// 12:00 in Warsaw: inside calling hours.
const warsawNoon = "2026-02-10T11:00:00.000Z"

/** A queued call placed through the engine (the recording telephony does nothing with it). */
const queuedCall = Effect.gen(function* () {
  yield* setNow(warsawNoon)
  const { organization, agent, definition } = yield* organizationWithAgent()
  const run = yield* (yield* CallPlacement).place({
    organizationId: organization.id,
    agent: agent.public_id,
    phone_number: "+48500100200",
    initial_context: { first_name: "Ola" }
  })
  return { organization, agent, definition, run }
})

describe("RuntimeCalls", () => {
  it.effect("finds a call by its global run id, rendered for the runtime", () =>
    Effect.gen(function* () {
      const { agent, definition, run } = yield* queuedCall
      const call = yield* (yield* RuntimeCalls).find(run.workflow_run_id)
      expect(call.run).toEqual(run)
      expect(call.first_message).toBe("Hello Ola!")
      expect(call.system_prompt).not.toContain("{{")
      expect(call.gathered_fields).toEqual(definition.workflow_definition.gathered_fields)
      expect(call.max_call_duration_seconds).toBe(agent.workflow_configurations.max_call_duration_seconds)
      expect(call.language).toBe(definition.workflow_definition.language)
    }).pipe(Effect.provide(engine))
  )

  it.effect("fails with RunNotFound for an unknown or erased run", () =>
    Effect.gen(function* () {
      const { organization, run } = yield* queuedCall
      const calls = yield* RuntimeCalls
      yield* (yield* RunStore).remove(organization.id, run.workflow_run_id)
      for (const id of [run.workflow_run_id, RunId.make(999_999)]) {
        const found = yield* Effect.exit(calls.find(id))
        expect(found).toEqual(
          Exit.fail(expect.objectContaining({ _tag: "RunNotFound", workflow_run_id: id }))
        )
        const reported = yield* Effect.flip(calls.report(id, [{ type: "answered" }]))
        expect(reported._tag).toBe("RunNotFound")
      }
    }).pipe(Effect.provide(engine))
  )

  it.effect("reports events in order in the run's own organization", () =>
    Effect.gen(function* () {
      const { organization, run } = yield* queuedCall
      const outcomes = yield* (yield* RuntimeCalls).report(run.workflow_run_id, [
        { type: "answered" },
        { type: "ringing" },
        { type: "gathered", values: { email: "ola@example.com" } }
      ])
      expect(outcomes.map((o) => [o._tag, o.run.status])).toEqual([
        ["Applied", "in_progress"],
        ["Ignored", "in_progress"],
        ["Applied", "in_progress"]
      ])
      const stored = Option.getOrThrow(yield* (yield* RunStore).find(organization.id, run.workflow_run_id))
      expect(stored.gathered_context).toEqual({ email: "ola@example.com" })
    }).pipe(Effect.provide(engine))
  )

  it.effect("keeps nothing of a batch when one of its events fails", () =>
    Effect.gen(function* () {
      const { organization, run } = yield* queuedCall
      const failure = yield* Effect.flip(
        (yield* RuntimeCalls).report(run.workflow_run_id, [
          { type: "gathered", values: { email: "ola@example.com" } },
          { type: "ended", status: "completed", duration_seconds: 3 },
          { type: "answered" }
        ])
      )
      expect(failure._tag).toBe("CallAlreadyEnded")
      const stored = Option.getOrThrow(yield* (yield* RunStore).find(organization.id, run.workflow_run_id))
      expect(stored).toEqual(run)
    }).pipe(Effect.provide(engine))
  )
})
