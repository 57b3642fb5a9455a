import { Agents, ScriptAnalysis, OperationSpans } from "@voice-agent-platform/core"
import { Effect } from "effect"
import { Api } from "@voice-agent-platform/contract/Api.js"
import * as CoreErrors from "../errors/CoreErrors.js"
import { CurrentOrganization } from "../middleware/Authentication.js"
import { render } from "@voice-agent-platform/contract/shared/Pagination.js"
import { agentResponse, definitionResponse } from "./AgentResponses.js"
import * as CapturedGroups from "../direct/CapturedGroups.js"

/** Handlers of the agents group. */
export const AgentsHandlers = CapturedGroups.group(Api, "agents", (handlers) =>
  Effect.gen(function* () {
    const agents = yield* Agents.Agents
    return handlers
      .handle(
        "analyzeScript",
        OperationSpans.fn("Agents.analyzeScript")(function* ({ payload }) {
          return ScriptAnalysis.analyze(payload.script, payload.language)
        })
      )
      .handle(
        "createFromScript",
        OperationSpans.fn("Agents.createFromScript")(function* ({ payload }) {
          const organization = yield* CurrentOrganization
          return agentResponse(yield* agents.createFromScript(organization.id, payload))
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "list",
        OperationSpans.fn("Agents.list")(function* ({ urlParams }) {
          const organization = yield* CurrentOrganization
          const page = yield* agents.list(
            organization.id,
            urlParams.status === undefined ? {} : { status: urlParams.status },
            urlParams
          )
          return render(page, agentResponse)
        })
      )
      .handle(
        "get",
        OperationSpans.fn("Agents.get")(function* ({ path }) {
          const organization = yield* CurrentOrganization
          return agentResponse(yield* agents.get(organization.id, path.agent_id))
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "update",
        OperationSpans.fn("Agents.update")(function* ({ path, payload }) {
          const organization = yield* CurrentOrganization
          // configuration fields are merged into the current ones by the store, atomically; definition
          // fields make a new version in the same transaction
          const {
            first_message,
            knowledge_base_document_ids,
            system_prompt,
            tools,
            transfer_numbers,
            ...patch
          } = payload
          const definition = {
            ...(system_prompt === undefined ? {} : { system_prompt }),
            ...(knowledge_base_document_ids === undefined
              ? {}
              : { knowledge_base_documents: knowledge_base_document_ids }),
            ...(first_message === undefined ? {} : { first_message }),
            ...(tools === undefined ? {} : { tools }),
            ...(transfer_numbers === undefined ? {} : { transfer_numbers })
          }
          return agentResponse(yield* agents.update(organization.id, path.agent_id, { ...patch, definition }))
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "definitions",
        OperationSpans.fn("Agents.definitions")(function* ({ path, urlParams }) {
          const organization = yield* CurrentOrganization
          return render(
            yield* agents.definitions(organization.id, path.agent_id, urlParams),
            definitionResponse
          )
        }, Effect.mapError(CoreErrors.toHttp))
      )
  })
)
