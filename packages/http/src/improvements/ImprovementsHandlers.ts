import type { Improvement } from "@voice-agent-platform/core"
import {
  Agents,
  Improvement as ImprovementModel,
  ImprovementGeneration,
  Improvements,
  RunId,
  OperationSpans
} from "@voice-agent-platform/core"
import { Effect } from "effect"
import { Api } from "@voice-agent-platform/contract/Api.js"
import * as CoreErrors from "../errors/CoreErrors.js"
import { CurrentOrganization } from "../middleware/Authentication.js"
import { render } from "@voice-agent-platform/contract/shared/Pagination.js"
import type { ImprovementResponse } from "@voice-agent-platform/contract/improvements/ImprovementsApi.js"
import * as CapturedGroups from "../direct/CapturedGroups.js"

const improvementResponse = (improvement: Improvement.Improvement): typeof ImprovementResponse.Type => ({
  id: improvement.id,
  workflow_id: improvement.agent_id,
  status: improvement.status,
  text: improvement.text,
  rationale: improvement.rationale,
  source_run_id: improvement.source_run_id,
  created_at: improvement.created_at,
  decided_at: improvement.decided_at,
  applied_definition_id: improvement.applied_definition_id
})

const decisionResponse = (result: Improvements.DecisionResult) => ({
  improvement: improvementResponse(result.improvement),
  current_definition_id: result.agent.current_definition_id
})

/** Handlers of the improvements group. */
export const ImprovementsHandlers = CapturedGroups.group(Api, "improvements", (handlers) =>
  Effect.gen(function* () {
    const improvements = yield* Improvements.Improvements
    const agents = yield* Agents.Agents
    const generation = yield* ImprovementGeneration.ImprovementGeneration
    return handlers
      .handle(
        "generate",
        OperationSpans.fn("Improvements.generate")(function* ({ path }) {
          const organization = yield* CurrentOrganization
          const agent = yield* agents.resolve(organization.id, path.agent_id)
          const added = yield* generation.generate(agent)
          return { items: added.map(improvementResponse) }
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "list",
        OperationSpans.fn("Improvements.list")(function* ({ path, urlParams }) {
          const organization = yield* CurrentOrganization
          const filter = urlParams.status === undefined ? {} : { status: urlParams.status }
          return render(
            yield* improvements.list(organization.id, path.agent_id, filter, urlParams),
            improvementResponse
          )
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "suggest",
        OperationSpans.fn("Improvements.suggest")(function* ({ path, payload }) {
          const organization = yield* CurrentOrganization
          const suggestion = yield* improvements.suggest(organization.id, path.agent_id, {
            text: payload.text,
            rationale: payload.rationale ?? null,
            source_run_id: payload.source_run_id == null ? null : RunId.RunId.make(payload.source_run_id)
          })
          return improvementResponse(suggestion)
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "accept",
        OperationSpans.fn("Improvements.accept")(function* ({ path }) {
          const organization = yield* CurrentOrganization
          const id = ImprovementModel.ImprovementId.make(path.improvement_id)
          return decisionResponse(yield* improvements.accept(organization.id, path.agent_id, id))
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "dismiss",
        OperationSpans.fn("Improvements.dismiss")(function* ({ path }) {
          const organization = yield* CurrentOrganization
          const id = ImprovementModel.ImprovementId.make(path.improvement_id)
          return decisionResponse(yield* improvements.dismiss(organization.id, path.agent_id, id))
        }, Effect.mapError(CoreErrors.toHttp))
      )
  })
)
