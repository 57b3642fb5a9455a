import {
  ApiKey,
  Money,
  Organization,
  Organizations,
  PhoneNumbers,
  OperationSpans
} from "@voice-agent-platform/core"
import { Effect, Either } from "effect"
import { Api } from "@voice-agent-platform/contract/Api.js"
import { NotFound, ValidationError } from "@voice-agent-platform/contract/errors/ApiErrors.js"
import * as CoreErrors from "../errors/CoreErrors.js"
import type { OrganizationResponse } from "@voice-agent-platform/contract/admin/AdminApi.js"
import * as CapturedGroups from "../direct/CapturedGroups.js"

const organizationResponse = (organization: Organization.Organization): typeof OrganizationResponse.Type => ({
  organization_id: organization.id,
  name: organization.name,
  outbound_channels: organization.outbound_channels,
  recording_retention_days: organization.recording_retention_days,
  balance_pln: Money.toDecimal(organization.balance),
  created_at: organization.created_at
})

/** Handlers of the operator API. */
export const AdminHandlers = CapturedGroups.group(Api, "admin", (handlers) =>
  Effect.gen(function* () {
    const organizations = yield* Organizations.Organizations
    const numbers = yield* PhoneNumbers.PhoneNumbers
    const organizationId = (id: number) => Organization.OrganizationId.make(id)
    return handlers
      .handle(
        "createOrganization",
        OperationSpans.fn("Admin.createOrganization")(function* ({ payload }) {
          const { organization, key } = yield* organizations.create(payload)
          return { organization_id: organization.id, api_key: key.api_key }
        })
      )
      .handle(
        "updateOrganization",
        OperationSpans.fn("Admin.updateOrganization")(function* ({ path, payload }) {
          return organizationResponse(
            yield* organizations.update(organizationId(path.organization_id), payload)
          )
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "issueKey",
        OperationSpans.fn("Admin.issueKey")(function* ({ path }) {
          return yield* organizations.issueKey(organizationId(path.organization_id))
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "revokeKey",
        OperationSpans.fn("Admin.revokeKey")(function* ({ path }) {
          const revoked = yield* organizations.revokeKey(ApiKey.ApiKeyId.make(path.api_key_id))
          if (!revoked)
            return yield* Effect.fail(new NotFound({ detail: `API key ${path.api_key_id} not found` }))
        })
      )
      .handle(
        "topUp",
        OperationSpans.fn("Admin.topUp")(function* ({ path, payload }) {
          const amount = Money.fromDecimal(payload.amount_pln)
          if (Either.isLeft(amount)) {
            return yield* Effect.fail(
              new ValidationError({
                detail: [{ loc: ["body", "amount_pln"], msg: amount.left.message, type: "value_error" }]
              })
            )
          }
          const organization = yield* organizations
            .topUp(organizationId(path.organization_id), amount.right)
            .pipe(Effect.mapError(CoreErrors.toHttp))
          return organizationResponse(organization)
        })
      )
      .handle(
        "addNumber",
        OperationSpans.fn("Admin.addNumber")(
          function* ({ payload }) {
            const number = yield* numbers.addToInventory(payload)
            return {
              id: number.id,
              number: number.number,
              number_type: number.number_type,
              status: number.status,
              created_at: number.created_at
            }
          },
          // The operator's field is `number`, not the calls' `phone_number`.
          Effect.mapError((error) =>
            error._tag === "InvalidPhoneNumber"
              ? new ValidationError({
                  detail: [{ loc: ["body", "number"], msg: error.message, type: "value_error.phone_number" }]
                })
              : CoreErrors.toHttp(error)
          )
        )
      )
  })
)
