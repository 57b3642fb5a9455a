import { Webhooks, OperationSpans } from "@voice-agent-platform/core"
import { Effect } from "effect"
import { Api } from "@voice-agent-platform/contract/Api.js"
import * as CoreErrors from "../errors/CoreErrors.js"
import { CurrentOrganization } from "../middleware/Authentication.js"
import { afterAllowedUrl } from "../outbound/DestinationCheck.js"
import { render } from "@voice-agent-platform/contract/shared/Pagination.js"
import { createdEndpointResponse, deliveryResponse, endpointResponse } from "./WebhookResponses.js"
import * as CapturedGroups from "../direct/CapturedGroups.js"

/** Handlers of the webhooks group. */
export const WebhooksHandlers = CapturedGroups.group(Api, "webhooks", (handlers) =>
  Effect.gen(function* () {
    const webhooks = yield* Webhooks.Webhooks
    return handlers
      .handle(
        "create",
        OperationSpans.fn("Webhooks.create")(
          function* ({ payload }) {
            const organization = yield* CurrentOrganization
            const endpoint = yield* webhooks.create(organization.id, {
              url: payload.url,
              ...(payload.events === undefined ? {} : { events: payload.events }),
              ...(payload.description === undefined ? {} : { description: payload.description })
            })
            return createdEndpointResponse(endpoint)
          },
          Effect.mapError(CoreErrors.toHttp),
          (handler, { payload }) => afterAllowedUrl(payload.url, ["body", "url"])(handler)
        )
      )
      .handle(
        "list",
        OperationSpans.fn("Webhooks.list")(function* ({ urlParams }) {
          const organization = yield* CurrentOrganization
          return render(yield* webhooks.list(organization.id, urlParams), endpointResponse)
        })
      )
      .handle(
        "get",
        OperationSpans.fn("Webhooks.get")(function* ({ path }) {
          const organization = yield* CurrentOrganization
          return endpointResponse(yield* webhooks.get(organization.id, path.webhook_id))
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "update",
        OperationSpans.fn("Webhooks.update")(
          function* ({ path, payload }) {
            const organization = yield* CurrentOrganization
            return endpointResponse(yield* webhooks.update(organization.id, path.webhook_id, payload))
          },
          Effect.mapError(CoreErrors.toHttp),
          (handler, { payload }) => afterAllowedUrl(payload.url, ["body", "url"])(handler)
        )
      )
      .handle(
        "delete",
        OperationSpans.fn("Webhooks.delete")(function* ({ path }) {
          const organization = yield* CurrentOrganization
          yield* webhooks.remove(organization.id, path.webhook_id)
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "deliveries",
        OperationSpans.fn("Webhooks.deliveries")(function* ({ path, urlParams }) {
          const organization = yield* CurrentOrganization
          const page = yield* webhooks.deliveries(organization.id, path.webhook_id, urlParams)
          return render(page, deliveryResponse)
        }, Effect.mapError(CoreErrors.toHttp))
      )
  })
)
