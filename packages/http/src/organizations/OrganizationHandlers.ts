import { Money, Organizations, OperationSpans } from "@voice-agent-platform/core"
import { Api } from "@voice-agent-platform/contract/Api.js"
import { Effect } from "effect"
import * as CoreErrors from "../errors/CoreErrors.js"
import { CurrentOrganization } from "../middleware/Authentication.js"
import * as CapturedGroups from "../direct/CapturedGroups.js"

/** Handlers of the organization group: the key's own organization. */
export const OrganizationHandlers = CapturedGroups.group(Api, "organization", (handlers) =>
  Effect.gen(function* () {
    const organizations = yield* Organizations.Organizations
    return handlers.handle(
      "get",
      OperationSpans.fn("Organization.get")(function* () {
        // read afresh: the authenticated organization may come from the lookup cache
        const { organization, channels_busy } = yield* organizations.overview((yield* CurrentOrganization).id)
        return {
          organization_id: organization.id,
          name: organization.name,
          balance_pln: Money.toDecimal(organization.balance),
          outbound_channels: organization.outbound_channels,
          channels_busy,
          recording_retention_days: organization.recording_retention_days,
          created_at: organization.created_at
        }
      }, Effect.mapError(CoreErrors.toHttp))
    )
  })
)
