import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import * as NumberPricing from "@voice-agent-platform/core/phone-numbers/NumberPricing.js"
import { Schema } from "effect"
import { NotFound, Conflict } from "../errors/ApiErrors.js"
import { OperatorAuthentication } from "../middleware/OperatorAuthentication.js"
import { IntId } from "../shared/Ids.js"
import { strict } from "../shared/Json.js"
import { Timestamp } from "../shared/Timestamp.js"

const outboundChannels = Schema.Int.pipe(Schema.between(1, 10_000))

export const CreateOrganizationRequest = strict(
  Schema.Struct({
    name: Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(255)),
    outbound_channels: Schema.optionalWith(outboundChannels, { exact: true })
  }).annotations({ identifier: "CreateOrganizationRequest" })
)

export const UpdateOrganizationRequest = strict(
  Schema.Struct({
    name: Schema.optionalWith(Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(255)), { exact: true }),
    outbound_channels: Schema.optionalWith(outboundChannels, { exact: true }),
    recording_retention_days: Schema.optionalWith(Schema.NullOr(Schema.Int.pipe(Schema.between(1, 3650))), {
      exact: true
    })
  }).annotations({ identifier: "UpdateOrganizationRequest" })
)

/** An organization as the operator sees it. */
export const OrganizationResponse = Schema.Struct({
  organization_id: Schema.Int,
  name: Schema.String,
  outbound_channels: Schema.Int,
  recording_retention_days: Schema.NullOr(Schema.Int),
  balance_pln: Schema.Number,
  created_at: Timestamp
}).annotations({ identifier: "Organization" })

/** A new key, shown once. */
export const IssuedKeyResponse = Schema.Struct({
  api_key_id: Schema.Int,
  api_key: Schema.String
}).annotations({
  identifier: "IssuedApiKey"
})

export const TopUpRequest = strict(
  Schema.Struct({
    amount_pln: Schema.Number.pipe(
      Schema.positive(),
      Schema.lessThanOrEqualTo(1_000_000),
      Schema.multipleOf(0.01)
    )
  }).annotations({ identifier: "TopUpRequest" })
)

export const AddNumberRequest = strict(
  Schema.Struct({
    number: Schema.String.pipe(Schema.maxLength(64)),
    number_type: NumberPricing.NumberType
  }).annotations({
    identifier: "AddInventoryNumberRequest"
  })
)

export const InventoryNumberResponse = Schema.Struct({
  id: Schema.Int,
  number: Schema.String,
  number_type: NumberPricing.NumberType,
  status: Schema.String,
  created_at: Timestamp
}).annotations({ identifier: "InventoryNumber" })

const organizationPath = Schema.Struct({ organization_id: IntId })

/**
 * The operator API (what the spec calls "the dashboard"): organizations, keys, balances and the number
 * inventory. On only when `ADMIN_TOKEN` is set; authenticated with `Authorization: Bearer <ADMIN_TOKEN>`.
 */
export class AdminApi extends HttpApiGroup.make("admin")
  .add(
    HttpApiEndpoint.post("createOrganization", "/organizations")
      .setPayload(CreateOrganizationRequest)
      .addSuccess(
        Schema.Struct({ organization_id: Schema.Int, api_key: Schema.String }).annotations({
          identifier: "CreatedOrganization"
        })
      )
      .annotateContext(
        OpenApi.annotations({
          summary: "Create an organization",
          description: "Creates an organization and its first API key; the key is shown only here."
        })
      )
  )
  .add(
    HttpApiEndpoint.patch("updateOrganization", "/organizations/:organization_id")
      .setPath(organizationPath)
      .setPayload(UpdateOrganizationRequest)
      .addSuccess(OrganizationResponse)
      .addError(NotFound)
      .annotateContext(
        OpenApi.annotations({
          summary: "Update an organization",
          description:
            "Changes the name, the number of outbound channels or the recording retention (days; null keeps files)."
        })
      )
  )
  .add(
    HttpApiEndpoint.post("issueKey", "/organizations/:organization_id/api-keys")
      .setPath(organizationPath)
      .addSuccess(IssuedKeyResponse)
      .addError(NotFound)
      .annotateContext(
        OpenApi.annotations({
          summary: "Issue an API key",
          description:
            "A new key for the organization; the key is shown only here and stored as a SHA-256 hash."
        })
      )
  )
  .add(
    HttpApiEndpoint.del("revokeKey", "/api-keys/:api_key_id")
      .setPath(Schema.Struct({ api_key_id: IntId }))
      .addSuccess(HttpApiSchema.NoContent)
      .addError(NotFound)
      .annotateContext(
        OpenApi.annotations({
          summary: "Revoke an API key",
          description: "Revokes the key at once: its next request answers 401."
        })
      )
  )
  .add(
    HttpApiEndpoint.post("topUp", "/organizations/:organization_id/balance-top-ups")
      .setPath(organizationPath)
      .setPayload(TopUpRequest)
      .addSuccess(OrganizationResponse)
      .addError(NotFound)
      .annotateContext(
        OpenApi.annotations({
          summary: "Top up a balance",
          description: "Adds `amount_pln` (at most 2 decimals) to the organization's prepaid balance."
        })
      )
  )
  .add(
    HttpApiEndpoint.post("addNumber", "/phone-numbers")
      .setPayload(AddNumberRequest)
      .addSuccess(InventoryNumberResponse)
      .addError(Conflict)
      .annotateContext(
        OpenApi.annotations({
          summary: "Add a number to the inventory",
          description:
            "Adds a Polish number that organizations can then order. A number already in the inventory is 409."
        })
      )
  )
  .middleware(OperatorAuthentication)
  .prefix("/admin/v1") {}
