import { Clock, Context, Effect, Either, Layer, Option } from "effect"
import * as SpanAttributes from "../observability/SpanAttributes.js"
import type { Agent } from "../agents/Agent.js"
import { AgentNotFound } from "../agents/AgentErrors.js"
import type { AgentRef } from "../agents/AgentIds.js"
import { Agents } from "../agents/Agents.js"
import { AgentStore } from "../agents/AgentStore.js"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Page, PageRequest } from "../pagination/Page.js"
import type { RunId } from "../runs/RunId.js"
import { RunNotFound } from "../runs/RunErrors.js"
import { RunStore } from "../runs/RunStore.js"
import { Transactions } from "../storage/Transactions.js"
import type { Improvement, ImprovementId, ImprovementStatus } from "./Improvement.js"
import * as ImprovementDecision from "./ImprovementDecision.js"
import { ImprovementAlreadyDecided, ImprovementNotFound } from "./ImprovementErrors.js"
import { ImprovementStore } from "./ImprovementStore.js"
import * as OperationSpans from "../observability/OperationSpans.js"

/** A new suggestion for an agent's prompt. */
export interface SuggestImprovement {
  readonly text: string
  readonly rationale?: string | null
  readonly source_run_id?: RunId | null
}

/** A decided suggestion, with the agent as the decision left it. */
export interface DecisionResult {
  readonly improvement: Improvement
  readonly agent: Agent
}

/**
 * Suggestions for improving an agent's prompt. Accepting one is the only way a suggestion changes the
 * agent: its text is appended to the system prompt as a new definition version, exactly once even when
 * two accepts race.
 */
export class Improvements extends Context.Tag("@voice-agent-platform/core/Improvements")<
  Improvements,
  {
    readonly list: (
      organizationId: OrganizationId,
      agent: AgentRef | string,
      filter: { readonly status?: ImprovementStatus },
      page: PageRequest
    ) => Effect.Effect<Page<Improvement>, AgentNotFound>
    readonly suggest: (
      organizationId: OrganizationId,
      agent: AgentRef | string,
      suggestion: SuggestImprovement
    ) => Effect.Effect<Improvement, AgentNotFound | RunNotFound>
    readonly accept: (
      organizationId: OrganizationId,
      agent: AgentRef | string,
      id: ImprovementId
    ) => Effect.Effect<DecisionResult, AgentNotFound | ImprovementNotFound | ImprovementAlreadyDecided>
    readonly dismiss: (
      organizationId: OrganizationId,
      agent: AgentRef | string,
      id: ImprovementId
    ) => Effect.Effect<DecisionResult, AgentNotFound | ImprovementNotFound | ImprovementAlreadyDecided>
  }
>() {}

export const layer = Layer.effect(
  Improvements,
  Effect.gen(function* () {
    const agents = yield* AgentStore
    const agentsService = yield* Agents
    const improvements = yield* ImprovementStore
    const runs = yield* RunStore
    const transactions = yield* Transactions

    const resolveAgent = agentsService.resolve

    /** The suggestion, if it exists and belongs to the agent; another agent's suggestion is "not found". */
    const findFor = (organizationId: OrganizationId, agent: Agent, id: ImprovementId) =>
      improvements.find(organizationId, id).pipe(
        Effect.map(Option.filter((i) => i.agent_id === agent.id)),
        Effect.flatMap(
          Option.match({
            onNone: () => Effect.fail(new ImprovementNotFound({ improvement_id: id })),
            onSome: Effect.succeed
          })
        )
      )

    const decide = (
      organizationId: OrganizationId,
      ref: AgentRef | string,
      id: ImprovementId,
      decision: ImprovementDecision.Decision
    ) =>
      transactions.run(
        Effect.gen(function* () {
          const agent = yield* resolveAgent(organizationId, ref)
          const current = yield* findFor(organizationId, agent, id)
          const now = new Date(yield* Clock.currentTimeMillis)
          const decided = ImprovementDecision.decide(current, decision, now)
          if (Either.isLeft(decided)) {
            return yield* new ImprovementAlreadyDecided({ improvement_id: id, status: decided.left.status })
          }
          // Compare-and-set: of two racing decisions only one finds the suggestion still pending.
          const stored = yield* improvements.decideIfPending(organizationId, id, {
            status: decision,
            decided_at: decided.right.decided_at ?? now
          })
          if (Option.isNone(stored)) {
            const latest = yield* findFor(organizationId, agent, id)
            return yield* new ImprovementAlreadyDecided({
              improvement_id: id,
              status: latest.status === "pending" ? decision : latest.status
            })
          }
          if (decision === "dismissed") return { improvement: stored.value, agent }
          const appended = yield* agents.appendDefinition(
            organizationId,
            agent.id,
            (definition) => ImprovementDecision.applyTo(definition, current.text),
            now
          )
          if (Option.isNone(appended))
            return yield* Effect.dieMessage(`agent ${agent.id} vanished during accept`)
          const improvement = yield* improvements.setAppliedDefinition(
            organizationId,
            id,
            appended.value.definition.id
          )
          return {
            improvement: Option.getOrElse(improvement, () => stored.value),
            agent: appended.value.agent
          }
        })
      )

    return {
      list: OperationSpans.fn("Improvements.list")(
        (organizationId, ref, filter, page) =>
          Effect.flatMap(resolveAgent(organizationId, ref), (agent) =>
            improvements.list(organizationId, agent.id, filter, page)
          ),
        SpanAttributes.organizationAgent
      ),
      suggest: OperationSpans.fn("Improvements.suggest")(function* (organizationId, ref, suggestion) {
        const agent = yield* resolveAgent(organizationId, ref)
        const sourceRunId = suggestion.source_run_id ?? null
        if (sourceRunId !== null) {
          const run = yield* runs.find(organizationId, sourceRunId)
          if (Option.isNone(run) || run.value.workflow_id !== agent.id) {
            return yield* new RunNotFound({ workflow_run_id: sourceRunId })
          }
        }
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* improvements.insert(
          {
            organization_id: organizationId,
            agent_id: agent.id,
            text: suggestion.text,
            rationale: suggestion.rationale ?? null,
            source_run_id: sourceRunId
          },
          now
        )
      }, SpanAttributes.organizationAgent),
      accept: OperationSpans.fn("Improvements.accept")(
        (organizationId, ref, id) => decide(organizationId, ref, id, "accepted"),
        SpanAttributes.organizationAgent
      ),
      dismiss: OperationSpans.fn("Improvements.dismiss")(
        (organizationId, ref, id) => decide(organizationId, ref, id, "dismissed"),
        SpanAttributes.organizationAgent
      )
    }
  })
)
