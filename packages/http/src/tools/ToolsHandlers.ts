import { HttpApiBuilder } from "@effect/platform"
import { type ToolDefinition, Tools } from "@voice-agent-platform/core"
import { Effect } from "effect"
import { Api } from "../Api.js"
import * as CoreErrors from "../errors/CoreErrors.js"
import { CurrentOrganization } from "../middleware/Authentication.js"
import { requireAllowedUrl } from "../outbound/DestinationCheck.js"
import { render } from "../shared/Pagination.js"
import { toolResponse } from "./ToolResponses.js"

/** An `http_api` tool's URL must not name a refused address (422 at `definition.config.url`). */
const requireAllowedToolUrl = (definition: ToolDefinition.ToolDefinition) =>
  definition.type === "http_api"
    ? requireAllowedUrl(definition.config.url, ["body", "definition", "config", "url"])
    : Effect.void

/** Handlers of the tools group. */
export const ToolsHandlers = HttpApiBuilder.group(Api, "tools", (handlers) =>
  Effect.gen(function* () {
    const tools = yield* Tools.Tools
    return handlers
      .handle("create", ({ payload }) =>
        Effect.zipRight(
          requireAllowedToolUrl(payload.definition),
          Effect.gen(function* () {
            const organization = yield* CurrentOrganization
            return toolResponse(yield* tools.create(organization.id, payload))
          }).pipe(Effect.mapError(CoreErrors.toHttp))
        )
      )
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          const filter = urlParams.status === undefined ? {} : { status: urlParams.status }
          return render(yield* tools.list(organization.id, filter, urlParams), toolResponse)
        })
      )
      .handle("get", ({ path }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          return toolResponse(yield* tools.get(organization.id, path.tool_uuid))
        }).pipe(Effect.mapError(CoreErrors.toHttp))
      )
      .handle("update", ({ path, payload }) =>
        Effect.zipRight(
          payload.definition === undefined ? Effect.void : requireAllowedToolUrl(payload.definition),
          Effect.gen(function* () {
            const organization = yield* CurrentOrganization
            return toolResponse(yield* tools.update(organization.id, path.tool_uuid, payload))
          }).pipe(Effect.mapError(CoreErrors.toHttp))
        )
      )
      .handle("archive", ({ path }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          return toolResponse(yield* tools.archive(organization.id, path.tool_uuid))
        }).pipe(Effect.mapError(CoreErrors.toHttp))
      )
  })
)
