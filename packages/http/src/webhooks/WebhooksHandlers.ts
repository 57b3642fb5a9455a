import { HttpApiBuilder } from "@effect/platform"
import { Webhooks } from "@voice-agent-platform/core"
import { Effect } from "effect"
import { Api } from "@voice-agent-platform/contract/Api.js"
import * as CoreErrors from "../errors/CoreErrors.js"
import { CurrentOrganization } from "../middleware/Authentication.js"
import { afterAllowedUrl } from "../outbound/DestinationCheck.js"
import { render } from "@voice-agent-platform/contract/shared/Pagination.js"
import { createdEndpointResponse, deliveryResponse, endpointResponse } from "./WebhookResponses.js"

/** Handlers of the webhooks group. */
export const WebhooksHandlers = HttpApiBuilder.group(Api, "webhooks", (handlers) =>
  Effect.gen(function* () {
    const webhooks = yield* Webhooks.Webhooks
    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          const endpoint = yield* webhooks.create(organization.id, {
            url: payload.url,
            ...(payload.events === undefined ? {} : { events: payload.events }),
            ...(payload.description === undefined ? {} : { description: payload.description })
          })
          return createdEndpointResponse(endpoint)
        }).pipe(Effect.mapError(CoreErrors.toHttp), afterAllowedUrl(payload.url, ["body", "url"]))
      )
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          return render(yield* webhooks.list(organization.id, urlParams), endpointResponse)
        })
      )
      .handle("get", ({ path }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          return endpointResponse(yield* webhooks.get(organization.id, path.webhook_id))
        }).pipe(Effect.mapError(CoreErrors.toHttp))
      )
      .handle("update", ({ path, payload }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          return endpointResponse(yield* webhooks.update(organization.id, path.webhook_id, payload))
        }).pipe(Effect.mapError(CoreErrors.toHttp), afterAllowedUrl(payload.url, ["body", "url"]))
      )
      .handle("delete", ({ path }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          yield* webhooks.remove(organization.id, path.webhook_id)
        }).pipe(Effect.mapError(CoreErrors.toHttp))
      )
      .handle("deliveries", ({ path, urlParams }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          const page = yield* webhooks.deliveries(organization.id, path.webhook_id, urlParams)
          return render(page, deliveryResponse)
        }).pipe(Effect.mapError(CoreErrors.toHttp))
      )
  })
)
