import { DoNotCallList, OperationSpans } from "@voice-agent-platform/core"
import { Effect } from "effect"
import { Api } from "@voice-agent-platform/contract/Api.js"
import * as CoreErrors from "../errors/CoreErrors.js"
import { CurrentOrganization } from "../middleware/Authentication.js"
import { render } from "@voice-agent-platform/contract/shared/Pagination.js"
import { doNotCallEntryResponse } from "./DoNotCallResponses.js"
import * as CapturedGroups from "../direct/CapturedGroups.js"

/** Handlers of the doNotCall group. */
export const DoNotCallHandlers = CapturedGroups.group(Api, "doNotCall", (handlers) =>
  Effect.gen(function* () {
    const list = yield* DoNotCallList.DoNotCallList
    return handlers
      .handle(
        "add",
        OperationSpans.fn("DoNotCall.add")(function* ({ payload }) {
          const organization = yield* CurrentOrganization
          const entry = yield* list.add(organization.id, {
            phone_number: payload.phone_number,
            reason: payload.reason ?? null
          })
          return doNotCallEntryResponse(entry)
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "list",
        OperationSpans.fn("DoNotCall.list")(function* ({ urlParams }) {
          const organization = yield* CurrentOrganization
          return render(yield* list.list(organization.id, urlParams), doNotCallEntryResponse)
        })
      )
      .handle(
        "remove",
        OperationSpans.fn("DoNotCall.remove")(function* ({ path }) {
          const organization = yield* CurrentOrganization
          yield* list.remove(organization.id, path.phone_number)
        }, Effect.mapError(CoreErrors.toHttp))
      )
  })
)
