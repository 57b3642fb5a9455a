import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import * as AgentIds from "@voice-agent-platform/core/agents/AgentIds.js"
import { Schema } from "effect"
import { Authentication } from "../middleware/Authentication.js"
import { PageOf, PageParams } from "../shared/Pagination.js"
import { RunFilterParams, RunListItemResponse } from "./ConversationsApi.js"

/** An agent in a query: its public id or its number. */
const AgentFilter = Schema.String.pipe(
  Schema.filter((input) => AgentIds.parseAgentRef(input) !== undefined, {
    message: () => "agent_id must be an agent's public id (agent_...) or its number",
    jsonSchema: {
      description:
        "Only this agent's runs: its public id (agent_...) or its number; an agent the organization does not have matches no run"
    }
  })
)

/** `GET /runs`: a page, the filters of every runs list, and one agent. */
export const ListAllRunsQuery = Schema.Struct({
  ...PageParams,
  agent_id: Schema.optionalWith(AgentFilter, { exact: true }),
  ...RunFilterParams
})

/** The organization's runs across its agents: what the console's "Runs" screen lists. */
export class RunsApi extends HttpApiGroup.make("runs")
  .add(
    HttpApiEndpoint.get("list", "/runs")
      .setUrlParams(ListAllRunsQuery)
      .addSuccess(PageOf(RunListItemResponse, "RunListPage"))
      .annotateContext(
        OpenApi.annotations({
          summary: "List runs of every agent",
          description:
            "The organization's runs (calls, browser sessions, chats) of every agent, newest first, each as `GET /agents/{agent_id}/conversations` lists it plus its `phone_number`, `disposition` and agent (`agent_id`, the public id, and `agent_name`). Filter by `agent_id` (public id or number), `status`, creation time (`created_after` inclusive, `created_before` exclusive), `phone_number` (any international spelling, matched as E.164), `disposition` and `mode`; every filter given must match. A run's own page is `GET /agents/{agent_id}/conversations/{run_id}`."
        })
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1") {}
