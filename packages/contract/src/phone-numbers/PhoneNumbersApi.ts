import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import * as NumberPricing from "@voice-agent-platform/core/phone-numbers/NumberPricing.js"
import * as PhoneNumber from "@voice-agent-platform/core/phone-numbers/PhoneNumber.js"
import { ParseResult, Schema } from "effect"
import { Conflict, NotFound, PaymentRequired } from "../errors/ApiErrors.js"
import * as Idempotent from "../idempotency/IdempotencyHeader.js"
import { Authentication } from "../middleware/Authentication.js"
import { IntId } from "../shared/Ids.js"
import { strict } from "../shared/Json.js"
import { PageOf, PageQuery } from "../shared/Pagination.js"
import { Timestamp } from "../shared/Timestamp.js"

/** A number type in a request: one issue, not one per literal, when it is neither. */
const NumberTypeInput = NumberPricing.NumberType.annotations({
  message: () => ({ message: "Input should be 'mobile' or 'landline'", override: true })
})

/** A Polish number the organization holds (or held, once released). */
export const PhoneNumberResponse = Schema.Struct({
  id: Schema.Int,
  ...PhoneNumber.PhoneNumber.pick("number", "number_type", "status").fields,
  activated_at: Schema.NullOr(Timestamp),
  released_at: Schema.NullOr(Timestamp),
  created_at: Timestamp
}).annotations({ identifier: "PhoneNumber" })

/** What ordering a number costs, compared with the balance. */
export const PriceQuoteResponse = Schema.Struct({
  number_type: NumberPricing.NumberType,
  phone_number_id: Schema.NullOr(Schema.Int).annotations({
    description: "The inventory number quoted; null for a quote by number type"
  }),
  activation_fee_pln: Schema.Number,
  monthly_fee_pln: Schema.Number,
  price_pln: Schema.Number.annotations({ description: "Activation fee plus the first month" }),
  balance_pln: Schema.Number,
  sufficient: Schema.Boolean,
  top_up_pln: Schema.Number.annotations({ description: "max(0, price - balance)" })
}).annotations({ identifier: "PhoneNumberQuote" })

/** A number taken or given back, with what was debited for it. */
export const PhoneNumberChargeResponse = Schema.Struct({
  phone_number: PhoneNumberResponse,
  charged_pln: Schema.Number.annotations({ description: "The amount debited from the balance" })
}).annotations({ identifier: "PhoneNumberCharge" })

/** Registered demand for a Polish number. */
export const NumberRequestResponse = Schema.Struct({
  id: Schema.Int,
  ...PhoneNumber.NumberRequest.pick("end_user_id", "consent", "note", "number_type", "status").fields,
  created_at: Timestamp
}).annotations({ identifier: "PhoneNumberRequest" })

/** The spec's Release quote. */
export const ReleaseQuoteResponse = Schema.Struct({
  phone_number_id: Schema.Int,
  fee_pln: Schema.Number.annotations({
    description: "Fee for the months remaining to the end of the minimum period"
  }),
  periods: Schema.Int.annotations({ description: "Number of periods (months) counted" }),
  commitment_until: Timestamp.annotations({ description: "End of the minimum period" })
}).annotations({ identifier: "ReleaseQuote" })

/** `POST /phone-numbers/polish/order`. */
export const OrderNumberRequest = strict(
  Schema.Struct({
    number_type: NumberTypeInput,
    phone_number_id: Schema.optionalWith(PhoneNumber.PhoneNumberId, { exact: true }).annotations({
      description: "A given inventory number of that type; any of the type when left out"
    })
  }).annotations({ identifier: "OrderPhoneNumberRequest" })
)

/** `POST /phone-numbers/polish/request`: consent must be true. */
export const RequestNumberRequest = strict(
  Schema.Struct({
    end_user_id: Schema.Int.annotations({
      description: "The organization's own identifier of its end user"
    }),
    consent: Schema.Boolean.pipe(
      Schema.filter((consent) => consent || "consent must be true: the end user must agree to the order", {
        jsonSchema: { enum: [true] }
      })
    ),
    note: Schema.String.pipe(Schema.maxLength(2000)),
    number_type: Schema.optionalWith(NumberTypeInput, { exact: true })
  }).annotations({ identifier: "RequestPhoneNumberRequest" })
)

/** The quote's query as sent: `?number_type=` or `?phone_number_id=`, exactly one of them. */
const QuoteQueryFields = Schema.Struct({
  number_type: Schema.optionalWith(NumberTypeInput, { exact: true }),
  phone_number_id: Schema.optionalWith(IntId, { exact: true }).annotations({
    description: "An inventory number"
  })
}).pipe(
  Schema.filter(
    (query) =>
      (query.number_type === undefined) !== (query.phone_number_id === undefined) ||
      "give exactly one of number_type and phone_number_id"
  )
)

/** What a quote asks about: a number type, or one inventory number. */
const QuoteSubject = Schema.Union(
  Schema.Struct({ number_type: NumberPricing.NumberType }),
  Schema.Struct({ phone_number_id: PhoneNumber.PhoneNumberId })
)

/** The quote's query, decoded to the service's `QuoteSubject`. */
export const QuoteQuery = Schema.transformOrFail(QuoteQueryFields, Schema.typeSchema(QuoteSubject), {
  strict: true,
  decode: (query, _, ast) =>
    query.phone_number_id !== undefined
      ? ParseResult.succeed({ phone_number_id: PhoneNumber.PhoneNumberId.make(query.phone_number_id) })
      : query.number_type !== undefined
        ? ParseResult.succeed({ number_type: query.number_type })
        : ParseResult.fail(
            new ParseResult.Type(ast, query, "give exactly one of number_type and phone_number_id")
          ),
  encode: (subject) => ParseResult.succeed(subject)
})

const numberPath = Schema.Struct({ phone_number_id: IntId })

/** Polish phone numbers: quotes, orders, demand requests, releases. */
export class PhoneNumbersApi extends HttpApiGroup.make("phoneNumbers")
  .add(
    HttpApiEndpoint.get("list", "/phone-numbers")
      .setUrlParams(PageQuery)
      .addSuccess(PageOf(PhoneNumberResponse, "PhoneNumberPage"))
      .annotateContext(
        OpenApi.annotations({
          summary: "List phone numbers",
          description: "The organization's numbers, active and released, most recently activated first."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("quote", "/phone-numbers/polish/quote")
      .setUrlParams(QuoteQuery)
      .addSuccess(PriceQuoteResponse)
      .addError(NotFound)
      .addError(Conflict)
      .annotateContext(
        OpenApi.annotations({
          summary: "Quote a Polish number",
          description:
            "Compares the price of a number (activation fee plus the first month), given by `phone_number_id` or for a `number_type`, with the balance, and gives the top-up needed: `top_up_pln = max(0, price_pln - balance_pln)`. Give exactly one of the two parameters (else 422). An unknown inventory number, or one another organization holds, is 404; one this organization already holds is 409 `no_inventory`."
        })
      )
  )
  .add(
    HttpApiEndpoint.post("order", "/phone-numbers/polish/order")
      .setPayload(OrderNumberRequest)
      .setHeaders(Idempotent.IdempotencyKeyHeader)
      .addSuccess(PhoneNumberChargeResponse)
      .addError(NotFound)
      .addError(Conflict)
      .addError(PaymentRequired)
      .annotateContext(
        OpenApi.annotations({
          summary: "Order a Polish number",
          description:
            "Takes an inventory number (the given `phone_number_id`, or any of the `number_type`), activates it at once and debits the activation fee plus the first month, all or nothing. A `phone_number_id` that is unknown or held by another organization: 404. No number of the type left: 409 `no_inventory` (register demand with `POST /phone-numbers/polish/request`). Balance too low: 402 with `top_up_pln`. An `Idempotency-Key` makes retries safe: a repeat takes no second number and debits nothing."
        })
      )
      .annotate(OpenApi.Transform, Idempotent.document)
  )
  .add(
    HttpApiEndpoint.post("requestNumber", "/phone-numbers/polish/request")
      .setPayload(RequestNumberRequest)
      .addSuccess(NumberRequestResponse)
      .annotateContext(
        OpenApi.annotations({
          summary: "Request a Polish number",
          description:
            "Registers demand for a Polish number when none is available; the number is then ordered from an operator. `end_user_id` is the organization's own identifier of its end user; `consent` must be true (else 422)."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("listRequests", "/phone-numbers/polish/requests")
      .setUrlParams(PageQuery)
      .addSuccess(PageOf(NumberRequestResponse, "PhoneNumberRequestPage"))
      .annotateContext(
        OpenApi.annotations({
          summary: "List Polish number requests",
          description: "The organization's registered demand for numbers, newest first."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/phone-numbers/:phone_number_id")
      .setPath(numberPath)
      .addSuccess(PhoneNumberResponse)
      .addError(NotFound)
      .annotateContext(
        OpenApi.annotations({
          summary: "Get a phone number",
          description: "One of the organization's numbers."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("releaseQuote", "/phone-numbers/:phone_number_id/release-quote")
      .setPath(numberPath)
      .addSuccess(ReleaseQuoteResponse)
      .addError(NotFound)
      .addError(Conflict)
      .annotateContext(
        OpenApi.annotations({
          summary: "Release Quote",
          description:
            "The cost of releasing the number now: the fee for the months left of its minimum period. Months are billed in advance, so the period that contains now is paid; `commitment_until` is the activation plus the minimum months (calendar months in Europe/Warsaw, the day clamped to the month's end); `periods` counts the billing periods that start after now and before `commitment_until`, and `fee_pln = periods × monthly fee`. Both are 0 once the commitment has passed. A released number is 409."
        })
      )
  )
  .add(
    HttpApiEndpoint.post("release", "/phone-numbers/:phone_number_id/release")
      .setPath(numberPath)
      .addSuccess(PhoneNumberChargeResponse)
      .addError(NotFound)
      .addError(Conflict)
      .addError(PaymentRequired)
      .annotateContext(
        OpenApi.annotations({
          summary: "Release a phone number",
          description:
            "Gives the number back and debits the release quote's `fee_pln`, all or nothing. Balance too low: 402 with `top_up_pln`; already released: 409."
        })
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1") {}
