import { Clock, Context, Effect, Layer, Option } from "effect"
import type { Agent } from "../agents/Agent.js"
import { AgentStore } from "../agents/AgentStore.js"
import * as AnalysisRequests from "../analysis/AnalysisRequests.js"
import { LanguageModel } from "../language-model/LanguageModel.js"
import * as SpanAttributes from "../observability/SpanAttributes.js"
import type { LanguageModelError } from "../language-model/LanguageModelErrors.js"
import * as ModelPricing from "../language-model/ModelPricing.js"
import type { RunId } from "../runs/RunId.js"
import { RunStore } from "../runs/RunStore.js"
import { Transactions } from "../storage/Transactions.js"
import type { TranscriptFragment } from "../transcripts/Transcript.js"
import * as Transcripts from "../transcripts/Transcripts.js"
import { UsageStore } from "../usage/UsageStore.js"
import type { Improvement } from "./Improvement.js"
import { ImprovementStore } from "./ImprovementStore.js"
import * as ImprovementSuggestions from "./ImprovementSuggestions.js"
import * as OperationSpans from "../observability/OperationSpans.js"

/** The most pending suggestions a generation reads, so as not to propose them again. */
export const pendingRead = 100

/**
 * Suggestions that come from the calls: one `improvement_suggestions` request over the agent's current
 * prompt and the transcripts of its most recent completed runs (`AnalysisRequests.improvementRuns`), each
 * answer a `pending` suggestion (at most 3, none equal to a pending one). Nothing changes the agent until
 * a suggestion is accepted. The tokens are charged as an `improvements` ledger line.
 */
export class ImprovementGeneration extends Context.Tag("@voice-agent-platform/core/ImprovementGeneration")<
  ImprovementGeneration,
  {
    /** Generates for the agent; answers the suggestions added (none when it has no conversation to read). */
    readonly generate: (agent: Agent) => Effect.Effect<ReadonlyArray<Improvement>, LanguageModelError>
  }
>() {}

export const make = Effect.gen(function* () {
  const agents = yield* AgentStore
  const runs = yield* RunStore
  const transcripts = yield* Transcripts.Transcripts
  const improvements = yield* ImprovementStore
  const model = yield* LanguageModel
  const transactions = yield* Transactions
  const ledger = yield* UsageStore
  // configuration is read when the layer is built
  const price = yield* ModelPricing.ModelPricing

  const generate = (agent: Agent) =>
    Effect.gen(function* () {
      const organizationId = agent.organization_id
      const definition = yield* agents.findDefinition(organizationId, agent.current_definition_id)
      if (Option.isNone(definition))
        return yield* Effect.dieMessage(`agent ${agent.id} has no current definition`)
      const recent = yield* runs.list(
        organizationId,
        agent.id,
        { status: "completed" },
        { page: 1, limit: AnalysisRequests.improvementRuns }
      )
      const read: Array<{ readonly run_id: RunId; readonly fragments: ReadonlyArray<TranscriptFragment> }> =
        []
      for (const run of recent.items) {
        const transcript = yield* Effect.option(transcripts.read(organizationId, run.workflow_run_id))
        if (Option.isSome(transcript) && transcript.value.fragments.length > 0) {
          read.push({ run_id: run.workflow_run_id, fragments: transcript.value.fragments })
        }
      }
      if (read.length === 0) return []
      const pending = yield* improvements.list(
        organizationId,
        agent.id,
        { status: "pending" },
        { page: 1, limit: pendingRead }
      )
      const pendingTexts = pending.items.map((i) => i.text)
      const reply = yield* model.structured(
        AnalysisRequests.improvementSuggestions({
          agent,
          definition: definition.value,
          runs: read,
          pending: pendingTexts
        })
      )
      const now = new Date(yield* Clock.currentTimeMillis)
      return yield* transactions.run(
        Effect.gen(function* () {
          // suggestions added meanwhile (another generation) count as pending too
          const latest = yield* improvements.list(
            organizationId,
            agent.id,
            { status: "pending" },
            { page: 1, limit: pendingRead }
          )
          const toAdd = ImprovementSuggestions.toAdd(
            reply.value,
            read.map((r) => r.run_id),
            latest.items.map((i) => i.text)
          )
          const added: Array<Improvement> = []
          for (const suggestion of toAdd) {
            added.push(
              yield* improvements.insert(
                { organization_id: organizationId, agent_id: agent.id, ...suggestion },
                now
              )
            )
          }
          yield* ledger.record({
            organization_id: organizationId,
            kind: "improvements",
            run_id: null,
            agent_id: agent.id,
            mode: "improvements",
            duration_seconds: 0,
            cost: ModelPricing.cost(reply.usage, price),
            prompt_tokens: reply.usage.prompt_tokens,
            completion_tokens: reply.usage.completion_tokens,
            currency: "PLN",
            recorded_at: now
          })
          return added
        })
      )
    })

  return ImprovementGeneration.of({
    generate: OperationSpans.fn("ImprovementGeneration.generate")(generate, (effect, agent) =>
      SpanAttributes.annotated(effect, { organization_id: agent.organization_id, agent_id: agent.id })
    )
  })
})

export const layer = Layer.effect(ImprovementGeneration, make)
