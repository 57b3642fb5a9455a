import * as PhoneNumberErrors from "../phone-numbers/PhoneNumberErrors.js"
import { Clock, Context, Effect, Layer, Option } from "effect"
import * as SpanAttributes from "../observability/SpanAttributes.js"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Page, PageRequest } from "../pagination/Page.js"
import * as E164 from "../phone-numbers/E164.js"
import type { DoNotCallEntry } from "./DoNotCallEntry.js"
import { DoNotCallEntryNotFound } from "./DoNotCallErrors.js"
import { DoNotCallStore } from "./DoNotCallStore.js"
import * as OperationSpans from "../observability/OperationSpans.js"

/** A number to add to the list, in any valid international format. */
export interface AddToDoNotCall {
  readonly phone_number: string
  readonly reason?: string | null
}

/**
 * The organization's Do not call list. Numbers are kept in E.164, so any format of a listed number
 * (spaces, dashes, brackets) is recognised: when adding, removing, checking, and when placing a call.
 */
export class DoNotCallList extends Context.Tag("@voice-agent-platform/core/DoNotCallList")<
  DoNotCallList,
  {
    /** Lists the number; adding a listed number again keeps its first `created_at` and sets the reason. */
    readonly add: (
      organizationId: OrganizationId,
      input: AddToDoNotCall
    ) => Effect.Effect<DoNotCallEntry, PhoneNumberErrors.InvalidPhoneNumber>
    /** The list, newest first. */
    readonly list: (organizationId: OrganizationId, page: PageRequest) => Effect.Effect<Page<DoNotCallEntry>>
    /** Takes the number off the list; 404 when it was not listed. */
    readonly remove: (
      organizationId: OrganizationId,
      phoneNumber: string
    ) => Effect.Effect<void, PhoneNumberErrors.InvalidPhoneNumber | DoNotCallEntryNotFound>
    /** True when the number (in any valid format) is on the list. */
    readonly check: (
      organizationId: OrganizationId,
      phoneNumber: string
    ) => Effect.Effect<boolean, PhoneNumberErrors.InvalidPhoneNumber>
  }
>() {}

export const layer = Layer.effect(
  DoNotCallList,
  Effect.gen(function* () {
    const store = yield* DoNotCallStore
    return {
      add: OperationSpans.fn("DoNotCallList.add")(function* (organizationId, input) {
        const phoneNumber = yield* E164.normalize(input.phone_number)
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* store.add({
          organization_id: organizationId,
          phone_number: phoneNumber,
          reason: input.reason ?? null,
          created_at: now
        })
      }, SpanAttributes.organization),
      list: OperationSpans.fn("DoNotCallList.list")(
        (organizationId, page) => store.list(organizationId, page),
        SpanAttributes.organization
      ),
      remove: OperationSpans.fn("DoNotCallList.remove")(function* (organizationId, phoneNumber) {
        const normalized = yield* E164.normalize(phoneNumber)
        if (!(yield* store.remove(organizationId, normalized))) {
          return yield* new DoNotCallEntryNotFound({ phone_number: normalized })
        }
      }, SpanAttributes.organization),
      check: OperationSpans.fn("DoNotCallList.check")(function* (organizationId, phoneNumber) {
        const normalized = yield* E164.normalize(phoneNumber)
        return Option.isSome(yield* store.find(organizationId, normalized))
      }, SpanAttributes.organization)
    }
  })
)
