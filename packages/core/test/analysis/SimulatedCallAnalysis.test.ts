import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Schema, TestClock } from "effect"
import { Agents } from "../../src/agents/Agents.js"
import { CallScriptRequest } from "../../src/agents/CallScript.js"
import * as RunAnalysis from "../../src/analysis/RunAnalysis.js"
import { CallPlacement } from "../../src/calls/CallPlacement.js"
import * as SimulationConfig from "../../src/calls/SimulationConfig.js"
import * as ImprovementGeneration from "../../src/improvements/ImprovementGeneration.js"
import { InMemory } from "../../src/index.js"
import type { Run } from "../../src/runs/Run.js"
import { isFinal } from "../../src/runs/Run.js"
import { RunStore } from "../../src/runs/RunStore.js"
import * as Fixtures from "../../testing/Fixtures.js"
import { setNow } from "../services/Engine.js"

/** The simulated runtime (a 0.4 s call) with the embedded model, and the analysis over them. */
const engine = RunAnalysis.layer.pipe(
  Layer.provide(ImprovementGeneration.layer),
  Layer.provideMerge(InMemory.layerSimulated.pipe(Layer.provide(SimulationConfig.layer(0.4))))
)

const codes = {
  confirmed: "The patient confirmed the visit",
  rescheduled: "The patient asked for another time",
  unreachable: "Nobody answered the call"
}

/** The run, once its call has ended (the call's fibers are the runtime's: they may still be finishing). */
const ended = (run: Run) =>
  Effect.gen(function* () {
    for (let i = 0; i < 1000; i++) {
      const current = Option.getOrThrow(
        yield* (yield* RunStore).find(run.organization_id, run.workflow_run_id)
      )
      if (isFinal(current.status)) return current
      yield* Effect.yieldNow()
    }
    return yield* Effect.dieMessage(`run ${run.workflow_run_id} never ended`)
  })

describe("a simulated call's analysis", () => {
  it.effect(
    "a completed call is analysed by the embedded model: a disposition among the agent's codes and a summary",
    () =>
      Effect.gen(function* () {
        yield* setNow("2026-02-10T11:00:00.000Z")
        const organization = yield* Fixtures.organization()
        const agents = yield* Agents
        const { agent } = yield* agents.createFromScript(
          organization.id,
          Schema.decodeUnknownSync(CallScriptRequest)({
            agent: {
              greeting: "Hello {{initial_context.first_name}}!",
              agent_goal: "Confirm the appointment",
              conversation_structure: ["Confirm the visit"],
              data_fields: ["email", { name: "confirmed", type: "boolean" }]
            }
          })
        )
        yield* agents.update(organization.id, agent.public_id, { call_disposition_codes: codes })
        const place = (phone_number: string) =>
          Effect.flatMap(CallPlacement, (calls) =>
            calls.place({
              organizationId: organization.id,
              agent: agent.public_id,
              phone_number,
              initial_context: { first_name: "Ola" }
            })
          )
        const talked = yield* place("+48500100200")
        const unanswered = yield* place("+48500000487")
        yield* TestClock.adjust("2 seconds")
        const [call, missed] = [yield* ended(talked), yield* ended(unanswered)]
        expect([call.status, call.analysis_status]).toEqual(["completed", "pending"])
        expect([missed.status, missed.analysis_status]).toEqual(["no_answer", "skipped"])
        expect(yield* (yield* RunAnalysis.RunAnalysis).round).toEqual(["done"])
        const analysed = yield* ended(talked)
        expect(analysed.analysis_status).toBe("completed")
        expect(Object.keys(codes)).toContain(analysed.disposition)
        expect(analysed.summary).not.toBeNull()
        expect(analysed.summary!.length).toBeLessThanOrEqual(500)
        // what the simulated runtime reported as gathered is kept
        expect(analysed.gathered_context).toEqual(call.gathered_context)
        expect(analysed.model_completion_tokens).toBeGreaterThan(0)
      }).pipe(Effect.provide(engine))
  )
})
