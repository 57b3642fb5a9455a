import { type Context, Effect, Option } from "effect"
import type { Agent, AgentDefinition } from "../agents/Agent.js"
import type { AgentStore } from "../agents/AgentStore.js"
import type { Run } from "../runs/Run.js"
import { RunNotFound } from "../runs/RunErrors.js"
import type { RunId } from "../runs/RunId.js"
import type { RunStore } from "../runs/RunStore.js"

/**
 * A run as a voice runtime reaches it (by its global id, whatever its organization) and the agent version
 * it was placed with: what `RuntimeCalls` and `RuntimeTools` both read a call from.
 */

/** The run behind a global id; a missing one is `RunNotFound`. */
export const locate = (runs: Context.Tag.Service<RunStore>, runId: RunId): Effect.Effect<Run, RunNotFound> =>
  Effect.flatMap(
    runs.findAnyOrganization(runId),
    Option.match({
      onNone: () => Effect.fail(new RunNotFound({ workflow_run_id: runId })),
      onSome: Effect.succeed
    })
  )

/** A run's agent and the version it was placed with. */
export interface RunAgent {
  readonly agent: Agent
  readonly definition: AgentDefinition
}

/**
 * The agent version the run was placed with; runs stored before versions were recorded read their agent's
 * current one. A run outlives nothing it was made from in normal use, so a missing agent or version is a
 * broken store (a defect), not an answer.
 */
export const versionOf = (agents: Context.Tag.Service<AgentStore>, run: Run): Effect.Effect<RunAgent> =>
  Effect.gen(function* () {
    const agent = yield* agents.find(run.organization_id, { _tag: "Number", id: run.workflow_id })
    if (Option.isNone(agent)) return yield* Effect.dieMessage(`run ${run.workflow_run_id} has no agent`)
    const definition = yield* agents.findDefinition(
      run.organization_id,
      run.agent_definition_id ?? agent.value.current_definition_id
    )
    if (Option.isNone(definition)) {
      return yield* Effect.dieMessage(`run ${run.workflow_run_id} has no agent definition`)
    }
    return { agent: agent.value, definition: definition.value }
  })

/**
 * The transfer numbers of the version. Every version carries them (since schema version 5, which gave
 * each agent's current version those of its configuration); the configuration stands in only for a
 * version made before that no run can have been placed with.
 */
export const transferNumbersOf = ({ agent, definition }: RunAgent): ReadonlyArray<string> =>
  definition.workflow_definition.transfer_numbers ?? agent.workflow_configurations.transfer_numbers
