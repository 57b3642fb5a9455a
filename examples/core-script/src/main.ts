import {
  Agents,
  CallingHours,
  CallPlacement,
  CallScript,
  InMemory,
  Organizations,
  Page,
  Runs,
  SimulationConfig,
  TimeZoneCandidates
} from "@voice-agent-platform/core"
import { Config, Effect, Layer, Schedule, Schema } from "effect"

/**
 * The engine's services from a script, with no HTTP at all: an organization, an agent from a call
 * script, a call on the built-in simulated runtime (checked against calling hours first), its transcript.
 * Everything in memory. Settings: `PHONE_NUMBER`, `SIM_CALL_SECONDS`.
 */
const program = Effect.gen(function* () {
  const phoneNumber = yield* Config.string("PHONE_NUMBER").pipe(Config.withDefault("+48 500 100 200"))
  const { organization } = yield* (yield* Organizations.Organizations).create({ name: "Script" })
  const { agent } = yield* (yield* Agents.Agents).createFromScript(
    organization.id,
    Schema.decodeUnknownSync(CallScript.CallScriptRequest)({
      agent: { greeting: "Hello {{initial_context.first_name}}, this is a script.", agent_goal: "Say hello" },
      agent_name: "Script agent"
    })
  )

  // a pure rule, usable on its own: may this number be called now?
  const decision = CallingHours.check(
    TimeZoneCandidates.forNumber(phoneNumber.replace(/[^+0-9]/g, "")),
    new Date()
  )
  if (decision._tag === "OutsideCallingHours") {
    console.log(`outside calling hours: call again at ${decision.retryAt.toISOString()}`)
    return
  }

  const run = yield* (yield* CallPlacement.CallPlacement).place({
    organizationId: organization.id,
    agent: agent.public_id,
    phone_number: phoneNumber,
    initial_context: { first_name: "Ola" }
  })
  console.log(`placed call ${run.workflow_run_id} to ${run.phone_number}`)
  const runs = yield* Runs.Runs
  const ended = yield* runs.get(organization.id, agent.public_id, run.workflow_run_id).pipe(
    Effect.filterOrFail(
      (current) => !["queued", "ringing", "in_progress"].includes(current.status),
      () => new Error("the call has not ended")
    ),
    Effect.retry(Schedule.spaced("200 millis").pipe(Schedule.compose(Schedule.recurs(300))))
  )
  console.log(`the call ended ${ended.status} after ${ended.duration_seconds} s`)
  const transcript = yield* runs.transcript(organization.id, agent.public_id, run.workflow_run_id)
  for (const turn of transcript.turns) console.log(`${turn.role}: ${turn.text}`)
  const listed = yield* runs.list(organization.id, agent.public_id, {}, Page.firstPage)
  console.log(`${listed.total_count} run(s) stored`)
})

const Engine = Layer.unwrapEffect(
  Effect.map(Config.number("SIM_CALL_SECONDS").pipe(Config.withDefault(2)), (seconds) =>
    InMemory.layerSimulated.pipe(Layer.provide(SimulationConfig.layer(seconds)))
  )
)

Effect.runPromise(Effect.scoped(program).pipe(Effect.provide(Engine))).catch((error) => {
  console.error(error)
  process.exit(1)
})
