import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import * as Improvement from "@voice-agent-platform/core/improvements/Improvement.js"
import { Schema } from "effect"
import { Conflict, NotFound, ServiceUnavailable } from "../errors/ApiErrors.js"
import { Authentication } from "../middleware/Authentication.js"
import { AgentIdParam, IntId } from "../shared/Ids.js"
import { strict } from "../shared/Json.js"
import { PageOf, PageParams } from "../shared/Pagination.js"
import { Timestamp } from "../shared/Timestamp.js"

/** A suggestion for improving an agent's prompt. */
export const ImprovementResponse = Schema.Struct({
  // ids as plain integers on the wire (the core's are branded), the agent's under its legacy name
  id: Schema.Int,
  workflow_id: Schema.Int,
  ...Improvement.Improvement.pick("status", "text", "rationale").fields,
  source_run_id: Schema.NullOr(Schema.Int),
  created_at: Timestamp,
  decided_at: Schema.NullOr(Timestamp),
  applied_definition_id: Schema.NullOr(Schema.Int)
}).annotations({ identifier: "Improvement" })

/** The answer of accept and dismiss: the decided suggestion and the agent's definition afterwards. */
/** `POST …/improvements/generate`: the suggestions it added. */
export const GeneratedImprovementsResponse = Schema.Struct({
  items: Schema.Array(ImprovementResponse)
}).annotations({ identifier: "GeneratedImprovements" })

export const ImprovementDecisionResponse = Schema.Struct({
  improvement: ImprovementResponse,
  current_definition_id: Schema.Int
}).annotations({ identifier: "ImprovementDecision" })

export const SuggestImprovementRequest = strict(
  Schema.Struct({
    text: Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(10_000)),
    rationale: Schema.optionalWith(Schema.NullOr(Schema.String.pipe(Schema.maxLength(10_000))), {
      exact: true
    }),
    source_run_id: Schema.optionalWith(Schema.NullOr(Schema.Int.pipe(Schema.positive())), { exact: true })
  }).annotations({ identifier: "SuggestImprovementRequest" })
)

const agentPath = Schema.Struct({ agent_id: AgentIdParam })
const decisionPath = Schema.Struct({ agent_id: AgentIdParam, improvement_id: IntId })

/** Suggestions for an agent's prompt: nothing changes the agent until a suggestion is accepted. */
export class ImprovementsApi extends HttpApiGroup.make("improvements")
  .add(
    HttpApiEndpoint.get("list", "/agents/:agent_id/improvements")
      .setPath(agentPath)
      .setUrlParams(
        Schema.Struct({
          ...PageParams,
          status: Schema.optionalWith(Improvement.ImprovementStatus, { exact: true })
        })
      )
      .addSuccess(PageOf(ImprovementResponse, "ImprovementPage"))
      .annotateContext(
        OpenApi.annotations({
          summary: "List Agent Improvements",
          description:
            "The agent's suggestions, newest first; filter by `status` (pending, accepted, dismissed)."
        })
      )
  )
  .add(
    HttpApiEndpoint.post("suggest", "/agents/:agent_id/improvements")
      .setPath(agentPath)
      .setPayload(SuggestImprovementRequest)
      .addSuccess(ImprovementResponse)
      .annotateContext(
        OpenApi.annotations({
          summary: "Suggest an Agent Improvement",
          description:
            "Records a pending suggestion. `source_run_id`, when given, must be a run of this agent. Nothing changes until the suggestion is accepted."
        })
      )
  )
  .add(
    HttpApiEndpoint.post("accept", "/agents/:agent_id/improvements/:improvement_id/accept")
      .setPath(decisionPath)
      .addSuccess(ImprovementDecisionResponse)
      .addError(Conflict)
      .annotateContext(
        OpenApi.annotations({
          summary: "Accept Agent Improvement",
          description:
            "Applies the suggestion by appending its text to the agent's system prompt as a new definition version. This is the only way a suggestion changes the agent. A decided suggestion answers 409; two simultaneous accepts append once."
        })
      )
  )
  .add(
    HttpApiEndpoint.post("dismiss", "/agents/:agent_id/improvements/:improvement_id/dismiss")
      .setPath(decisionPath)
      .addSuccess(ImprovementDecisionResponse)
      .addError(Conflict)
      .annotateContext(
        OpenApi.annotations({
          summary: "Dismiss Agent Improvement",
          description: "Dismisses the suggestion without applying it. A decided suggestion answers 409."
        })
      )
  )
  .add(
    HttpApiEndpoint.post("generate", "/agents/:agent_id/improvements/generate")
      .setPath(agentPath)
      .addSuccess(GeneratedImprovementsResponse)
      .addError(ServiceUnavailable)
      .annotateContext(
        OpenApi.annotations({
          summary: "Generate Agent Improvements",
          description:
            "Asks the language model to read the agent's prompt and the transcripts of its most recent completed runs (at most 10, 4,000 characters of each) and propose at most 3 additions to the prompt; each becomes a `pending` suggestion (none equal to a pending one is added) and is answered in `items`. Nothing changes the agent until a suggestion is accepted. `items` is empty when the agent has no conversation to read or the model proposes nothing. The same generation runs by itself after every `IMPROVEMENTS_EVERY_RUNS` (default 20) analysed runs of an agent. 503 `model_unavailable: …` with `Retry-After` when the model could not answer."
        })
      )
  )
  // every endpoint names an agent that may not exist
  .addError(NotFound)
  .middleware(Authentication)
  .prefix("/api/v1") {}
