import { Clock, Context, Effect, Layer, Option } from "effect"
import * as SpanAttributes from "../observability/SpanAttributes.js"
import type { Agent, AgentDefinition } from "../agents/Agent.js"
import { AgentStore } from "../agents/AgentStore.js"
import * as DefinitionChanges from "../agents/DefinitionChanges.js"
import type { Run, RunLogEntry } from "../runs/Run.js"
import { isFinal } from "../runs/Run.js"
import type { RunNotFound } from "../runs/RunErrors.js"
import type { RunId } from "../runs/RunId.js"
import { RunStore } from "../runs/RunStore.js"
import { Transactions } from "../storage/Transactions.js"
import * as ConversationLimits from "../conversation/ConversationLimits.js"
import * as InitialContextTemplate from "../templates/InitialContextTemplate.js"
import type { Tool } from "../tools/Tool.js"
import { withoutSecrets } from "../tools/Tool.js"
import * as ToolCallLog from "../tools/ToolCallLog.js"
import { ToolExecutor, type RunRefusal } from "../tools/ToolExecutor.js"
import type { ToolResult } from "../tools/ToolResult.js"
import { ToolStore } from "../tools/ToolStore.js"
import * as RunVersion from "./RunVersion.js"

import { RunEndedNoToolCalls, ToolCallLimitReached } from "./CallErrors.js"
import { ToolArchivedNotRun, ToolNotFound } from "../tools/ToolErrors.js"
import * as OperationSpans from "../observability/OperationSpans.js"
/** The agent version a run was placed with, as a voice runtime uses it. */
export interface RunAgentVersion {
  readonly run: Run
  readonly agent: Agent
  readonly definition: AgentDefinition
  /** The prompt with `{{initial_context.*}}` filled from the run. */
  readonly system_prompt: string
  readonly first_message: string
  /** The version's active tools, in its order, without secrets. */
  readonly tools: ReadonlyArray<Tool>
  /** The version's transfer numbers (E.164). */
  readonly transfer_numbers: ReadonlyArray<string>
}

/** Why a tool call was refused (nothing was run). */
export type ToolCallRefusal =
  RunNotFound | ToolNotFound | ToolArchivedNotRun | RunEndedNoToolCalls | ToolCallLimitReached | RunRefusal

/**
 * The tools of a call, as a voice runtime (or the built-in simulated one) uses them: the agent version
 * the run was placed with, and its tools run through the `ToolExecutor`, each call kept in the run's logs
 * (so it is erased with the run).
 */
export class RuntimeTools extends Context.Tag("@voice-agent-platform/core/RuntimeTools")<
  RuntimeTools,
  {
    readonly agentOf: (runId: RunId) => Effect.Effect<RunAgentVersion, RunNotFound>
    /** The same for a run the caller has just read (a chat's turn): the run is not read again. */
    readonly agentOfRun: (run: Run) => Effect.Effect<RunAgentVersion>
    /**
     * Runs one of the version's tools with the model's arguments; the answer is the executor's result. Its
     * log line is stamped `loggedAt` when given (a chat stamps a reply's calls with the time its message
     * arrived, so they sort between that message and the reply), else with the time it finished.
     */
    readonly call: (
      runId: RunId,
      toolUuid: string,
      args: Readonly<Record<string, unknown>>,
      loggedAt?: Date
    ) => Effect.Effect<ToolResult, ToolCallRefusal>
  }
>() {}

/** How many tool calls a run's logs hold. */
export const toolCallsIn = (run: Run): number =>
  run.logs.filter((entry) => entry.tool_call !== undefined).length

export const make = Effect.gen(function* () {
  const runs = yield* RunStore
  const agents = yield* AgentStore
  const tools = yield* ToolStore
  const transactions = yield* Transactions
  const executor = yield* ToolExecutor

  const locate = (runId: RunId) => RunVersion.locate(runs, runId)
  const versionOf = (run: Run) => RunVersion.versionOf(agents, run)

  const agentOfRun = (run: Run) =>
    Effect.gen(function* () {
      const version = yield* versionOf(run)
      const { agent, definition } = version
      const workflow = definition.workflow_definition
      const uuids = DefinitionChanges.toolUuidsOf(workflow)
      // one read for all of them (every turn of a chat reads them), put back in the version's order
      const found = new Map((yield* tools.findMany(run.organization_id, uuids)).map((t) => [t.tool_uuid, t]))
      return {
        run,
        agent,
        definition,
        system_prompt: InitialContextTemplate.renderBounded(
          workflow.system_prompt,
          run.initial_context,
          ConversationLimits.systemPromptChars
        ),
        first_message: InitialContextTemplate.renderBounded(
          workflow.first_message,
          run.initial_context,
          ConversationLimits.firstMessageChars
        ),
        // an archived tool is no longer run, so the runtime is not offered it
        tools: uuids.flatMap((uuid) => {
          const tool = found.get(uuid)
          return tool !== undefined && tool.status === "active" ? [withoutSecrets(tool)] : []
        }),
        transfer_numbers: RunVersion.transferNumbersOf(version)
      }
    })

  const agentOf = (runId: RunId) => Effect.flatMap(locate(runId), agentOfRun)

  const call = (runId: RunId, toolUuid: string, args: Readonly<Record<string, unknown>>, loggedAt?: Date) =>
    Effect.gen(function* () {
      const run = yield* locate(runId)
      const version = yield* versionOf(run)
      const definition = version.definition
      // Only a tool of the version the run was placed with: any other (another agent's, another
      // organization's) is not found, exactly like a missing one.
      const stored = DefinitionChanges.toolUuidsOf(definition.workflow_definition).includes(toolUuid)
        ? yield* tools.find(run.organization_id, toolUuid)
        : Option.none()
      if (Option.isNone(stored)) return yield* new ToolNotFound({ tool_uuid: toolUuid })
      const tool = stored.value
      if (tool.status === "archived") return yield* new ToolArchivedNotRun({ tool_uuid: toolUuid })
      if (isFinal(run.status)) {
        return yield* new RunEndedNoToolCalls({ workflow_run_id: runId, status: run.status })
      }
      if (toolCallsIn(run) >= ToolCallLog.maxToolCallsPerRun) {
        return yield* new ToolCallLimitReached({
          workflow_run_id: runId,
          limit: ToolCallLog.maxToolCallsPerRun
        })
      }
      const { result, secrets } = yield* executor.execute(tool, {
        arguments: args,
        initialContext: run.initial_context,
        transferNumbers: RunVersion.transferNumbersOf(version)
      })
      // the secrets this call used (a credential rotated meanwhile does not change them)
      const entry = ToolCallLog.record(
        { tool_uuid: tool.tool_uuid, type: tool.definition.type },
        args,
        result,
        secrets.texts,
        secrets.argumentNames
      )
      const now = loggedAt ?? new Date(yield* Clock.currentTimeMillis)
      // Appended under the run's lock, so concurrent calls and call events all keep their lines; a run
      // deleted meanwhile keeps nothing. The bounds are checked again there: a call that ends after its
      // run did, or after concurrent calls filled the run's bound, leaves a short line without its record.
      yield* transactions.run(
        Effect.gen(function* () {
          const current = yield* runs.findForUpdate(run.organization_id, runId)
          if (Option.isNone(current)) return
          const late = isFinal(current.value.status)
            ? "the run had ended"
            : toolCallsIn(current.value) >= ToolCallLog.maxToolCallsPerRun
              ? `the run's logs already held ${ToolCallLog.maxToolCallsPerRun} tool calls`
              : null
          const line: RunLogEntry =
            late === null
              ? {
                  timestamp: now,
                  level: entry.outcome === "ok" ? "info" : "warning",
                  message: ToolCallLog.message(tool.name, entry),
                  tool_call: entry
                }
              : {
                  timestamp: now,
                  level: "warning",
                  message: `${ToolCallLog.message(tool.name, entry)}; ${late}, so its record is not kept`
                }
          yield* runs.update(run.organization_id, runId, { logs: [...current.value.logs, line] })
        })
      )
      return result
    })

  return RuntimeTools.of({
    agentOf: OperationSpans.fn("RuntimeTools.agentOf")(agentOf, SpanAttributes.run),
    agentOfRun: OperationSpans.fn("RuntimeTools.agentOfRun")(agentOfRun, SpanAttributes.ofRun),
    call: OperationSpans.fn("RuntimeTools.call")(call, SpanAttributes.run)
  })
})

/** The runtime's tools over the stores and a `ToolExecutor` from the environment. */
export const layer = Layer.effect(RuntimeTools, make)
