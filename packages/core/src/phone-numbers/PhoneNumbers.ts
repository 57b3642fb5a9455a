import { Clock, Context, Effect, Layer, Option } from "effect"
import * as SpanAttributes from "../observability/SpanAttributes.js"
import { MinorUnits } from "../money/Money.js"
import type { OrganizationId } from "../organizations/Organization.js"
import type { InsufficientBalance } from "../organizations/OrganizationErrors.js"
import { OrganizationNotFound } from "../organizations/OrganizationErrors.js"
import { OrganizationStore } from "../organizations/OrganizationStore.js"
import type { Page, PageRequest } from "../pagination/Page.js"
import { Transactions } from "../storage/Transactions.js"
import * as E164 from "./E164.js"
import type { NumberType } from "./NumberPricing.js"
import type { NumberRequest, PhoneNumber, PhoneNumberId } from "./PhoneNumber.js"
import * as PhoneNumberErrors from "./PhoneNumberErrors.js"
import type { PhoneNumberExists } from "./PhoneNumberErrors.js"
import {
  NoInventory,
  NumberTypeMismatch,
  PhoneNumberNotActive,
  PhoneNumberNotFound
} from "./PhoneNumberErrors.js"
import { PhoneNumberStore } from "./PhoneNumberStore.js"
import * as PriceQuote from "./PriceQuote.js"
import { PriceListConfig } from "./PriceListConfig.js"
import * as ReleaseQuote from "./ReleaseQuote.js"
import * as OperationSpans from "../observability/OperationSpans.js"

/** A quote asks for a number type, or for one inventory number. */
export type QuoteSubject = { readonly number_type: NumberType } | { readonly phone_number_id: PhoneNumberId }

/** An order takes any number of the type, or the given inventory number (which must be of that type). */
export interface OrderRequest {
  readonly number_type: NumberType
  readonly phone_number_id?: PhoneNumberId
}

export interface NumberDemand {
  readonly end_user_id: number
  readonly consent: boolean
  readonly note: string
  readonly number_type?: NumberType
}

/** A charge taken from the balance, in minor units. */
export interface Charged<A> {
  readonly value: A
  readonly charged: MinorUnits
}

/** Polish phone numbers: price quotes, orders from the inventory, demand requests, release quotes and releases. */
export class PhoneNumbers extends Context.Tag("@voice-agent-platform/core/PhoneNumbers")<
  PhoneNumbers,
  {
    readonly quote: (
      organizationId: OrganizationId,
      subject: QuoteSubject
    ) => Effect.Effect<PriceQuote.PriceQuote, PhoneNumberNotFound | NoInventory | OrganizationNotFound>
    /** Takes a number, activates it and debits activation + first month, all or nothing. */
    readonly order: (
      organizationId: OrganizationId,
      request: OrderRequest
    ) => Effect.Effect<
      Charged<PhoneNumber>,
      PhoneNumberNotFound | NoInventory | NumberTypeMismatch | InsufficientBalance | OrganizationNotFound
    >
    readonly requestNumber: (
      organizationId: OrganizationId,
      demand: NumberDemand
    ) => Effect.Effect<NumberRequest>
    readonly listRequests: (
      organizationId: OrganizationId,
      page: PageRequest
    ) => Effect.Effect<Page<NumberRequest>>
    readonly list: (organizationId: OrganizationId, page: PageRequest) => Effect.Effect<Page<PhoneNumber>>
    readonly get: (
      organizationId: OrganizationId,
      id: PhoneNumberId
    ) => Effect.Effect<PhoneNumber, PhoneNumberNotFound>
    readonly releaseQuote: (
      organizationId: OrganizationId,
      id: PhoneNumberId
    ) => Effect.Effect<ReleaseQuote.ReleaseQuote, PhoneNumberNotFound | PhoneNumberNotActive>
    /** Releases a number and debits the release fee, all or nothing. */
    readonly release: (
      organizationId: OrganizationId,
      id: PhoneNumberId
    ) => Effect.Effect<
      Charged<PhoneNumber>,
      PhoneNumberNotFound | PhoneNumberNotActive | InsufficientBalance | OrganizationNotFound
    >
    /** Adds a Polish number to the orderable inventory (an operator action). */
    readonly addToInventory: (input: {
      readonly number: string
      readonly number_type: NumberType
    }) => Effect.Effect<PhoneNumber, PhoneNumberErrors.InvalidPhoneNumber | PhoneNumberExists>
  }
>() {}

export const layer = Layer.effect(
  PhoneNumbers,
  Effect.gen(function* () {
    const numbers = yield* PhoneNumberStore
    const organizations = yield* OrganizationStore
    const transactions = yield* Transactions
    const prices = yield* PriceListConfig
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    const organization = (id: OrganizationId) =>
      Effect.flatMap(
        organizations.find(id),
        Option.match({
          onNone: () => Effect.fail(new OrganizationNotFound({ organization_id: id })),
          onSome: Effect.succeed
        })
      )

    /** A number of the organization (held now or before); anyone else's is "not found". */
    const owned = (organizationId: OrganizationId, id: PhoneNumberId) =>
      Effect.flatMap(numbers.find(id), (number) =>
        Option.isSome(number) && number.value.organization_id === organizationId
          ? Effect.succeed(number.value)
          : Effect.fail(new PhoneNumberNotFound({ phone_number_id: id }))
      )

    /**
     * An inventory number that can be ordered: missing → 404, held (or once held) by this organization →
     * 409, anyone else's → 404 like a missing one, so a quote or an order never tells a tenant that a
     * number exists elsewhere.
     */
    const orderable = (organizationId: OrganizationId, id: PhoneNumberId) =>
      Effect.gen(function* () {
        const number = yield* numbers.find(id)
        if (Option.isNone(number)) return yield* new PhoneNumberNotFound({ phone_number_id: id })
        if (number.value.status !== "available") return yield* notOrderable(organizationId, number.value)
        return number.value
      })

    /** The answer for a number that is not available: 409 when it is the caller's own, else 404. */
    const notOrderable = (organizationId: OrganizationId, number: PhoneNumber) =>
      number.organization_id === organizationId
        ? Effect.fail(new NoInventory({ number_type: number.number_type, phone_number_id: number.id }))
        : Effect.fail(new PhoneNumberNotFound({ phone_number_id: number.id }))

    const releaseQuote = (organizationId: OrganizationId, id: PhoneNumberId) =>
      Effect.gen(function* () {
        const number = yield* owned(organizationId, id)
        if (number.status !== "active" || number.activated_at === null) {
          return yield* new PhoneNumberNotActive({ phone_number_id: id })
        }
        const pricing = prices[number.number_type]
        return {
          number,
          quote: ReleaseQuote.compute({
            phoneNumberId: id,
            activatedAt: number.activated_at,
            minimumPeriodMonths: pricing.minimumPeriodMonths,
            monthlyFee: pricing.monthlyFee,
            now: yield* now
          })
        }
      })

    return {
      quote: OperationSpans.fn("PhoneNumbers.quote")(function* (organizationId, subject) {
        const numberType =
          "phone_number_id" in subject
            ? (yield* orderable(organizationId, subject.phone_number_id)).number_type
            : subject.number_type
        const org = yield* organization(organizationId)
        return PriceQuote.compute({
          numberType,
          phoneNumberId: "phone_number_id" in subject ? subject.phone_number_id : null,
          pricing: prices[numberType],
          balance: org.balance
        })
      }, SpanAttributes.organization),
      order: OperationSpans.fn("PhoneNumbers.order")(
        (organizationId, request) =>
          transactions.run(
            Effect.gen(function* () {
              if (request.phone_number_id !== undefined) {
                const chosen = yield* orderable(organizationId, request.phone_number_id)
                if (chosen.number_type !== request.number_type) {
                  return yield* new NumberTypeMismatch({
                    phone_number_id: chosen.id,
                    number_type: chosen.number_type,
                    requested: request.number_type
                  })
                }
              }
              const pricing = prices[request.number_type]
              const claimed = yield* numbers.claim(
                organizationId,
                request.phone_number_id === undefined
                  ? { number_type: request.number_type }
                  : { number_type: request.number_type, id: request.phone_number_id },
                yield* now
              )
              if (Option.isNone(claimed) && request.phone_number_id !== undefined) {
                // taken since it was checked: answered as if it had been taken before
                const taken = yield* numbers.find(request.phone_number_id)
                if (Option.isSome(taken)) return yield* notOrderable(organizationId, taken.value)
              }
              if (Option.isNone(claimed)) {
                return yield* new NoInventory({
                  number_type: request.number_type,
                  phone_number_id: request.phone_number_id ?? null
                })
              }
              const price = MinorUnits.make(pricing.activationFee + pricing.monthlyFee)
              const debited = yield* organizations.debit(organizationId, price)
              if (Option.isNone(debited))
                return yield* new OrganizationNotFound({ organization_id: organizationId })
              return { value: claimed.value, charged: price }
            })
          ),
        SpanAttributes.organization
      ),
      requestNumber: OperationSpans.fn("PhoneNumbers.requestNumber")(
        (organizationId, demand) =>
          Effect.flatMap(now, (at) =>
            numbers.insertRequest(
              {
                organization_id: organizationId,
                end_user_id: demand.end_user_id,
                consent: demand.consent,
                note: demand.note,
                number_type: demand.number_type ?? null
              },
              at
            )
          ),
        SpanAttributes.organization
      ),
      listRequests: OperationSpans.fn("PhoneNumbers.listRequests")(
        numbers.listRequests,
        SpanAttributes.organization
      ),
      list: OperationSpans.fn("PhoneNumbers.list")(numbers.listOwned, SpanAttributes.organization),
      get: OperationSpans.fn("PhoneNumbers.get")(owned, SpanAttributes.organization),
      releaseQuote: OperationSpans.fn("PhoneNumbers.releaseQuote")(
        (organizationId, id) => Effect.map(releaseQuote(organizationId, id), ({ quote }) => quote),
        SpanAttributes.organization
      ),
      release: OperationSpans.fn("PhoneNumbers.release")(
        (organizationId, id) =>
          transactions.run(
            Effect.gen(function* () {
              const { quote } = yield* releaseQuote(organizationId, id)
              const released = yield* numbers.release(organizationId, id, yield* now)
              if (Option.isNone(released)) return yield* new PhoneNumberNotActive({ phone_number_id: id })
              const fee = MinorUnits.make(quote.fee)
              if (fee > 0) {
                const debited = yield* organizations.debit(organizationId, fee)
                if (Option.isNone(debited))
                  return yield* new OrganizationNotFound({ organization_id: organizationId })
              }
              return { value: released.value, charged: fee }
            })
          ),
        SpanAttributes.organization
      ),
      addToInventory: OperationSpans.fn("PhoneNumbers.addToInventory")(function* (input) {
        const number = yield* E164.normalize(input.number)
        if (!number.startsWith("+48"))
          return yield* new PhoneNumberErrors.InvalidPhoneNumber({ input: input.number })
        return yield* numbers.addToInventory({ number, number_type: input.number_type }, yield* now)
      })
    }
  })
)
