import { HttpApiBuilder } from "@effect/platform"
import { ToolExecutor, Tools } from "@voice-agent-platform/core"
import { Effect } from "effect"
import { Api } from "@voice-agent-platform/contract/Api.js"
import * as CoreErrors from "../errors/CoreErrors.js"
import { CurrentOrganization } from "../middleware/Authentication.js"
import { afterAllowedToolUrl } from "../outbound/DestinationCheck.js"
import { render } from "@voice-agent-platform/contract/shared/Pagination.js"
import { toolResponse } from "@voice-agent-platform/contract/tools/ToolResponses.js"

/** Handlers of the tools group. */
export const ToolsHandlers = HttpApiBuilder.group(Api, "tools", (handlers) =>
  Effect.gen(function* () {
    const tools = yield* Tools.Tools
    const executor = yield* ToolExecutor.ToolExecutor
    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          return toolResponse(yield* tools.create(organization.id, payload))
        }).pipe(Effect.mapError(CoreErrors.toHttp), afterAllowedToolUrl(payload.definition))
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
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          return toolResponse(yield* tools.update(organization.id, path.tool_uuid, payload))
        }).pipe(Effect.mapError(CoreErrors.toHttp), afterAllowedToolUrl(payload.definition))
      )
      .handle("archive", ({ path }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          return toolResponse(yield* tools.archive(organization.id, path.tool_uuid))
        }).pipe(Effect.mapError(CoreErrors.toHttp))
      )
      .handle("test", ({ path, payload }) =>
        Effect.gen(function* () {
          const organization = yield* CurrentOrganization
          return yield* executor.test(organization.id, path.tool_uuid, payload)
        }).pipe(Effect.mapError(CoreErrors.toHttp))
      )
  })
)
