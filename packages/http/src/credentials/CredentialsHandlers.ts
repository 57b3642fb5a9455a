import { Credentials, OperationSpans } from "@voice-agent-platform/core"
import { Effect } from "effect"
import { Api } from "@voice-agent-platform/contract/Api.js"
import * as CoreErrors from "../errors/CoreErrors.js"
import { CurrentOrganization } from "../middleware/Authentication.js"
import { render } from "@voice-agent-platform/contract/shared/Pagination.js"
import { credentialResponse } from "./CredentialResponses.js"
import * as CapturedGroups from "../direct/CapturedGroups.js"

/** Handlers of the credentials group. */
export const CredentialsHandlers = CapturedGroups.group(Api, "credentials", (handlers) =>
  Effect.gen(function* () {
    const credentials = yield* Credentials.Credentials
    return handlers
      .handle(
        "create",
        OperationSpans.fn("Credentials.create")(function* ({ payload }) {
          const organization = yield* CurrentOrganization
          return credentialResponse(yield* credentials.create(organization.id, payload))
        })
      )
      .handle(
        "list",
        OperationSpans.fn("Credentials.list")(function* ({ urlParams }) {
          const organization = yield* CurrentOrganization
          return render(yield* credentials.list(organization.id, urlParams), credentialResponse)
        })
      )
      .handle(
        "get",
        OperationSpans.fn("Credentials.get")(function* ({ path }) {
          const organization = yield* CurrentOrganization
          return credentialResponse(yield* credentials.get(organization.id, path.credential_uuid))
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "delete",
        OperationSpans.fn("Credentials.delete")(function* ({ path }) {
          const organization = yield* CurrentOrganization
          yield* credentials.remove(organization.id, path.credential_uuid)
        }, Effect.mapError(CoreErrors.toHttp))
      )
  })
)
