import { PhoneNumber, PhoneNumbers, OperationSpans } from "@voice-agent-platform/core"
import { Effect } from "effect"
import { Api } from "@voice-agent-platform/contract/Api.js"
import * as CoreErrors from "../errors/CoreErrors.js"
import * as Idempotent from "../idempotency/Idempotent.js"
import { CurrentOrganization } from "../middleware/Authentication.js"
import { render } from "@voice-agent-platform/contract/shared/Pagination.js"
import { PhoneNumberChargeResponse } from "@voice-agent-platform/contract/phone-numbers/PhoneNumbersApi.js"
import {
  chargeResponse,
  numberRequestResponse,
  phoneNumberResponse,
  priceQuoteResponse,
  releaseQuoteResponse
} from "./PhoneNumberResponses.js"
import * as CapturedGroups from "../direct/CapturedGroups.js"

/** Handlers of the phoneNumbers group. */
export const PhoneNumbersHandlers = CapturedGroups.group(Api, "phoneNumbers", (handlers) =>
  Effect.gen(function* () {
    const numbers = yield* PhoneNumbers.PhoneNumbers
    return handlers
      .handle(
        "list",
        OperationSpans.fn("PhoneNumbers.list")(function* ({ urlParams }) {
          const organization = yield* CurrentOrganization
          return render(yield* numbers.list(organization.id, urlParams), phoneNumberResponse)
        })
      )
      .handle(
        "quote",
        OperationSpans.fn("PhoneNumbers.quote")(function* ({ urlParams }) {
          const organization = yield* CurrentOrganization
          return priceQuoteResponse(yield* numbers.quote(organization.id, urlParams))
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "order",
        OperationSpans.fn("PhoneNumbers.order")(function* ({ headers, payload }) {
          return yield* Idempotent.run(
            {
              headers,
              method: "POST",
              route: "/phone-numbers/polish/order",
              path: {},
              body: payload,
              success: PhoneNumberChargeResponse
            },
            Effect.gen(function* () {
              const organization = yield* CurrentOrganization
              return chargeResponse(yield* numbers.order(organization.id, payload))
            }).pipe(Effect.mapError(CoreErrors.toHttp))
          )
        })
      )
      .handle(
        "requestNumber",
        OperationSpans.fn("PhoneNumbers.requestNumber")(function* ({ payload }) {
          const organization = yield* CurrentOrganization
          return numberRequestResponse(yield* numbers.requestNumber(organization.id, payload))
        })
      )
      .handle(
        "listRequests",
        OperationSpans.fn("PhoneNumbers.listRequests")(function* ({ urlParams }) {
          const organization = yield* CurrentOrganization
          return render(yield* numbers.listRequests(organization.id, urlParams), numberRequestResponse)
        })
      )
      .handle(
        "get",
        OperationSpans.fn("PhoneNumbers.get")(function* ({ path }) {
          const organization = yield* CurrentOrganization
          const id = PhoneNumber.PhoneNumberId.make(path.phone_number_id)
          return phoneNumberResponse(yield* numbers.get(organization.id, id))
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "releaseQuote",
        OperationSpans.fn("PhoneNumbers.releaseQuote")(function* ({ path }) {
          const organization = yield* CurrentOrganization
          const id = PhoneNumber.PhoneNumberId.make(path.phone_number_id)
          return releaseQuoteResponse(yield* numbers.releaseQuote(organization.id, id))
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "release",
        OperationSpans.fn("PhoneNumbers.release")(function* ({ path }) {
          const organization = yield* CurrentOrganization
          const id = PhoneNumber.PhoneNumberId.make(path.phone_number_id)
          return chargeResponse(yield* numbers.release(organization.id, id))
        }, Effect.mapError(CoreErrors.toHttp))
      )
  })
)
