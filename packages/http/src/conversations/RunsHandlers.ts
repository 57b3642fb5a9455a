import { Runs, OperationSpans } from "@voice-agent-platform/core"
import { Api } from "@voice-agent-platform/contract/Api.js"
import { render } from "@voice-agent-platform/contract/shared/Pagination.js"
import { Effect } from "effect"
import { CurrentOrganization } from "../middleware/Authentication.js"
import { runListItemResponse } from "./RunResponses.js"
import * as CapturedGroups from "../direct/CapturedGroups.js"

/** Handlers of the runs group: the organization's runs across its agents. */
export const RunsHandlers = CapturedGroups.group(Api, "runs", (handlers) =>
  Effect.gen(function* () {
    const runs = yield* Runs.Runs
    return handlers.handle(
      "list",
      OperationSpans.fn("Runs.list")(function* ({ urlParams }) {
        const organization = yield* CurrentOrganization
        const { agent_id, limit, page, ...filter } = urlParams
        const found = yield* runs.listAcrossAgents(
          organization.id,
          agent_id === undefined ? filter : { ...filter, agent: agent_id },
          { page, limit }
        )
        return render(found, runListItemResponse)
      })
    )
  })
)
