import { Context, Effect, Layer } from "effect"
import * as SpanAttributes from "../observability/SpanAttributes.js"
import type { GatheredField } from "../agents/Agent.js"
import { AgentStore } from "../agents/AgentStore.js"
import type { Run } from "../runs/Run.js"
import type { RunNotFound } from "../runs/RunErrors.js"
import type { RunId } from "../runs/RunId.js"
import { RunStore } from "../runs/RunStore.js"
import { Transactions } from "../storage/Transactions.js"
import * as ConversationLimits from "../conversation/ConversationLimits.js"
import * as InitialContextTemplate from "../templates/InitialContextTemplate.js"
import * as CallEvents from "./CallEvents.js"
import * as RunVersion from "./RunVersion.js"
import * as OperationSpans from "../observability/OperationSpans.js"

/** What an out-of-process voice runtime needs to run one call. */
export interface RuntimeCall {
  readonly run: Run
  /** The first message with `{{initial_context.*}}` filled in from the run's context. */
  readonly first_message: string
  /** The system prompt with `{{initial_context.*}}` filled in from the run's context. */
  readonly system_prompt: string
  /** The fields the agent should gather: the schema of the run's `gathered_context`. */
  readonly gathered_fields: ReadonlyArray<GatheredField>
  /** The longest the call may last; past it (plus a grace) the run loses its outbound channel. */
  readonly max_call_duration_seconds: number
  /** The language the agent speaks. */
  readonly language: string
}

/**
 * The calls as a voice runtime sees them: by their global run id, not through an organization (the
 * runtime serves every organization and is trusted by its own token). Events go through `CallEvents`.
 */
export class RuntimeCalls extends Context.Tag("@voice-agent-platform/core/RuntimeCalls")<
  RuntimeCalls,
  {
    /** The call behind a run, rendered from the agent version it was placed with. Fails when the run is gone. */
    readonly find: (runId: RunId) => Effect.Effect<RuntimeCall, RunNotFound>
    /**
     * Applies events to a run in order, all or nothing: when one fails (the call has ended, a recording
     * is not a WAV file) none of them is kept and the failure is the answer.
     */
    readonly report: (
      runId: RunId,
      events: ReadonlyArray<CallEvents.CallEvent>
    ) => Effect.Effect<ReadonlyArray<CallEvents.CallEventOutcome>, CallEvents.CallEventError>
  }
>() {}

/** The service over the run and agent stores and call events. */
export const make = Effect.gen(function* () {
  const runs = yield* RunStore
  const agents = yield* AgentStore
  const events = yield* CallEvents.CallEvents
  const transactions = yield* Transactions

  const locate = (runId: RunId) => RunVersion.locate(runs, runId)

  return RuntimeCalls.of({
    find: OperationSpans.fn("RuntimeCalls.find")(function* (runId) {
      const run = yield* locate(runId)
      const { agent, definition } = yield* RunVersion.versionOf(agents, run)
      const workflow = definition.workflow_definition
      return {
        run,
        first_message: InitialContextTemplate.renderBounded(
          workflow.first_message,
          run.initial_context,
          ConversationLimits.firstMessageChars
        ),
        system_prompt: InitialContextTemplate.renderBounded(
          workflow.system_prompt,
          run.initial_context,
          ConversationLimits.systemPromptChars
        ),
        gathered_fields: workflow.gathered_fields,
        max_call_duration_seconds: agent.workflow_configurations.max_call_duration_seconds,
        language: workflow.language
      }
    }, SpanAttributes.run),
    // a call's end reported alone is written with the ends reported at the same time (its own
    // transaction either way); a batch of several takes one turn, before the transaction's connection
    // (see `CallEvents.inTurn`)
    report: OperationSpans.fn("RuntimeCalls.report")(
      (runId, batch) =>
        batch.length === 1 && batch[0]!.type === "ended"
          ? Effect.flatMap(locate(runId), (run) =>
              Effect.map(events.report(run.organization_id, runId, batch[0]!), (outcome) => [outcome])
            )
          : events.inTurn(
              transactions.run(
                Effect.gen(function* () {
                  const run = yield* locate(runId)
                  return yield* Effect.forEach(batch, (event) =>
                    events.report(run.organization_id, runId, event)
                  )
                })
              )
            ),
      SpanAttributes.run
    )
  })
})

/** Runtime calls over the stores and the call events service (stateless: it builds its own). */
export const layer = Layer.effect(RuntimeCalls, make).pipe(Layer.provide(CallEvents.layer))
