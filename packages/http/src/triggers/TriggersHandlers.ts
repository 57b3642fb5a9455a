import { Triggers, OperationSpans } from "@voice-agent-platform/core"
import { Effect } from "effect"
import { Api } from "@voice-agent-platform/contract/Api.js"
import * as CoreErrors from "../errors/CoreErrors.js"
import { CurrentOrganization } from "../middleware/Authentication.js"
import { render } from "@voice-agent-platform/contract/shared/Pagination.js"
import { triggerResponse } from "./TriggerResponses.js"
import * as CapturedGroups from "../direct/CapturedGroups.js"

/** Handlers of the triggers group. */
export const TriggersHandlers = CapturedGroups.group(Api, "triggers", (handlers) =>
  Effect.gen(function* () {
    const triggers = yield* Triggers.Triggers
    return handlers
      .handle(
        "create",
        OperationSpans.fn("Triggers.create")(function* ({ payload }) {
          const organization = yield* CurrentOrganization
          const trigger = yield* triggers.create(organization.id, {
            agent: String(payload.agent_id),
            name: payload.name,
            ...(payload.initial_context == null ? {} : { initial_context: payload.initial_context })
          })
          return triggerResponse(trigger)
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "list",
        OperationSpans.fn("Triggers.list")(function* ({ urlParams }) {
          const organization = yield* CurrentOrganization
          const filter = urlParams.status === undefined ? {} : { status: urlParams.status }
          return render(yield* triggers.list(organization.id, filter, urlParams), triggerResponse)
        })
      )
      .handle(
        "get",
        OperationSpans.fn("Triggers.get")(function* ({ path }) {
          const organization = yield* CurrentOrganization
          return triggerResponse(yield* triggers.get(organization.id, path.trigger_id))
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "archive",
        OperationSpans.fn("Triggers.archive")(function* ({ path }) {
          const organization = yield* CurrentOrganization
          yield* triggers.archive(organization.id, path.trigger_id)
        }, Effect.mapError(CoreErrors.toHttp))
      )
  })
)
