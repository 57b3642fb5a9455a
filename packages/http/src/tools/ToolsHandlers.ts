import { ToolExecutor, Tools, OperationSpans } from "@voice-agent-platform/core"
import { Effect } from "effect"
import { Api } from "@voice-agent-platform/contract/Api.js"
import * as CoreErrors from "../errors/CoreErrors.js"
import { CurrentOrganization } from "../middleware/Authentication.js"
import { afterAllowedToolUrl } from "../outbound/DestinationCheck.js"
import { render } from "@voice-agent-platform/contract/shared/Pagination.js"
import { toolResponse } from "@voice-agent-platform/contract/tools/ToolResponses.js"
import * as CapturedGroups from "../direct/CapturedGroups.js"

/** Handlers of the tools group. */
export const ToolsHandlers = CapturedGroups.group(Api, "tools", (handlers) =>
  Effect.gen(function* () {
    const tools = yield* Tools.Tools
    const executor = yield* ToolExecutor.ToolExecutor
    return handlers
      .handle(
        "create",
        OperationSpans.fn("Tools.create")(
          function* ({ payload }) {
            const organization = yield* CurrentOrganization
            return toolResponse(yield* tools.create(organization.id, payload))
          },
          Effect.mapError(CoreErrors.toHttp),
          (handler, { payload }) => afterAllowedToolUrl(payload.definition)(handler)
        )
      )
      .handle(
        "list",
        OperationSpans.fn("Tools.list")(function* ({ urlParams }) {
          const organization = yield* CurrentOrganization
          const filter = urlParams.status === undefined ? {} : { status: urlParams.status }
          return render(yield* tools.list(organization.id, filter, urlParams), toolResponse)
        })
      )
      .handle(
        "get",
        OperationSpans.fn("Tools.get")(function* ({ path }) {
          const organization = yield* CurrentOrganization
          return toolResponse(yield* tools.get(organization.id, path.tool_uuid))
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "update",
        OperationSpans.fn("Tools.update")(
          function* ({ path, payload }) {
            const organization = yield* CurrentOrganization
            return toolResponse(yield* tools.update(organization.id, path.tool_uuid, payload))
          },
          Effect.mapError(CoreErrors.toHttp),
          (handler, { payload }) => afterAllowedToolUrl(payload.definition)(handler)
        )
      )
      .handle(
        "archive",
        OperationSpans.fn("Tools.archive")(function* ({ path }) {
          const organization = yield* CurrentOrganization
          return toolResponse(yield* tools.archive(organization.id, path.tool_uuid))
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "test",
        OperationSpans.fn("Tools.test")(function* ({ path, payload }) {
          const organization = yield* CurrentOrganization
          return yield* executor.test(organization.id, path.tool_uuid, payload)
        }, Effect.mapError(CoreErrors.toHttp))
      )
  })
)
