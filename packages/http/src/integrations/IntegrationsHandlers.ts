import { HttpApiBuilder } from "@effect/platform"
import { Integrations } from "@voice-agent-platform/core"
import { Effect } from "effect"
import { Api } from "@voice-agent-platform/contract/Api.js"
import * as CoreErrors from "../errors/CoreErrors.js"
import { CurrentOrganization } from "../middleware/Authentication.js"
import { render } from "@voice-agent-platform/contract/shared/Pagination.js"
import { connectionResponse } from "./IntegrationResponses.js"

/** Handlers of the integrations group. */
export const IntegrationsHandlers = HttpApiBuilder.group(Api, "integrations", (handlers) =>
  Effect.gen(function* () {
    const integrations = yield* Integrations.Integrations
    return handlers
      .handle("oauthProviders", () =>
        Effect.map(integrations.providers, (providers) => ({ providers: [...providers] }))
      )
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          return connectionResponse(yield* integrations.create(organization.id, payload))
        })
      )
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          return render(yield* integrations.list(organization.id, urlParams), connectionResponse)
        })
      )
      .handle("get", ({ path }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          return connectionResponse(yield* integrations.get(organization.id, path.connection_id))
        }).pipe(Effect.mapError(CoreErrors.toHttp))
      )
      .handle("update", ({ path, payload }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          return connectionResponse(yield* integrations.update(organization.id, path.connection_id, payload))
        }).pipe(Effect.mapError(CoreErrors.toHttp))
      )
      .handle("delete", ({ path }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          yield* integrations.remove(organization.id, path.connection_id)
        }).pipe(Effect.mapError(CoreErrors.toHttp))
      )
  })
)
