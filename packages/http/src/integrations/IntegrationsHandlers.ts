import { Integrations, OperationSpans } from "@voice-agent-platform/core"
import { Effect } from "effect"
import { Api } from "@voice-agent-platform/contract/Api.js"
import * as CoreErrors from "../errors/CoreErrors.js"
import { CurrentOrganization } from "../middleware/Authentication.js"
import { render } from "@voice-agent-platform/contract/shared/Pagination.js"
import { connectionResponse } from "./IntegrationResponses.js"
import * as CapturedGroups from "../direct/CapturedGroups.js"

/** Handlers of the integrations group. */
export const IntegrationsHandlers = CapturedGroups.group(Api, "integrations", (handlers) =>
  Effect.gen(function* () {
    const integrations = yield* Integrations.Integrations
    return handlers
      .handle(
        "oauthProviders",
        OperationSpans.fn("Integrations.oauthProviders")(function* () {
          return { providers: [...(yield* integrations.providers)] }
        })
      )
      .handle(
        "create",
        OperationSpans.fn("Integrations.create")(function* ({ payload }) {
          const organization = yield* CurrentOrganization
          return connectionResponse(yield* integrations.create(organization.id, payload))
        })
      )
      .handle(
        "list",
        OperationSpans.fn("Integrations.list")(function* ({ urlParams }) {
          const organization = yield* CurrentOrganization
          return render(yield* integrations.list(organization.id, urlParams), connectionResponse)
        })
      )
      .handle(
        "get",
        OperationSpans.fn("Integrations.get")(function* ({ path }) {
          const organization = yield* CurrentOrganization
          return connectionResponse(yield* integrations.get(organization.id, path.connection_id))
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "update",
        OperationSpans.fn("Integrations.update")(function* ({ path, payload }) {
          const organization = yield* CurrentOrganization
          return connectionResponse(yield* integrations.update(organization.id, path.connection_id, payload))
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "delete",
        OperationSpans.fn("Integrations.delete")(function* ({ path }) {
          const organization = yield* CurrentOrganization
          yield* integrations.remove(organization.id, path.connection_id)
        }, Effect.mapError(CoreErrors.toHttp))
      )
  })
)
