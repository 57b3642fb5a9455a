import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { CallPlacement } from "../../src/calls/CallPlacement.js"
import { RunId } from "../../src/runs/RunId.js"
import { Runs } from "../../src/runs/Runs.js"
import { engine, organizationWithAgent, setNow } from "../services/Engine.js"
import { recordingTracer } from "./RecordingTracer.js"

describe("core operations' spans", () => {
  it.effect("each operation is a span named Service.operation carrying the ids it is about", () =>
    Effect.gen(function* () {
      yield* setNow("2026-02-10T11:00:00.000Z") // 12:00 in Warsaw: within calling hours
      const { organization, agent } = yield* organizationWithAgent()
      const tracer = yield* recordingTracer
      const run = yield* tracer.recording(
        Effect.flatMap(CallPlacement, (calls) =>
          calls.place({
            organizationId: organization.id,
            agent: agent.public_id,
            phone_number: "+48500100200"
          })
        )
      )
      yield* tracer.recording(
        Effect.flatMap(Runs, (runs) =>
          runs.list(organization.id, agent.public_id, {}, { page: 1, limit: 10 })
        )
      )
      const [placed, listed] = tracer.roots()
      expect(placed?.name).toBe("CallPlacement.place")
      expect(Object.fromEntries(placed!.attributes)).toMatchObject({
        organization_id: organization.id,
        agent_id: agent.public_id,
        run_id: run.workflow_run_id
      })
      // the operations it calls are spans beneath it, with their own ids
      const resolve = tracer.spans.find((span) => span.name === "Agents.resolve")!
      expect(resolve.parent._tag === "Some" && resolve.parent.value.spanId).toBe(placed!.spanId)
      expect(listed?.name).toBe("Runs.list")
      expect(Object.fromEntries(listed!.attributes)).toMatchObject({
        organization_id: organization.id,
        agent_id: agent.public_id
      })
    }).pipe(Effect.provide(engine))
  )

  it.effect("a refused operation's span ends failed and still carries the ids it was asked about", () =>
    Effect.gen(function* () {
      const { organization } = yield* organizationWithAgent()
      const tracer = yield* recordingTracer
      const refused = yield* tracer.recording(
        Effect.flip(
          Effect.flatMap(Runs, (runs) =>
            runs.get(organization.id, "agent_00000000000000000000", RunId.make(1))
          )
        )
      )
      expect(refused._tag).toBe("AgentNotFound")
      const [span] = tracer.roots()
      expect(span?.name).toBe("Runs.get")
      expect(span?.status._tag === "Ended" && span.status.exit._tag).toBe("Failure")
      expect(Object.fromEntries(span!.attributes)).toMatchObject({
        organization_id: organization.id,
        agent_id: "agent_00000000000000000000",
        run_id: 1
      })
    }).pipe(Effect.provide(engine))
  )
})
