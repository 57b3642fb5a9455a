import { Context, type Effect, type Option } from "effect"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Page, PageRequest } from "../pagination/Page.js"
import type { NumberType } from "./NumberPricing.js"
import type { PhoneNumberExists } from "./PhoneNumberErrors.js"
import type { NumberRequest, PhoneNumber, PhoneNumberId } from "./PhoneNumber.js"

export type NewNumberRequest = Omit<NumberRequest, "id" | "created_at" | "status">

/** Storage of the number inventory, the organizations' numbers and demand requests. */
export class PhoneNumberStore extends Context.Tag("@voice-agent-platform/core/PhoneNumberStore")<
  PhoneNumberStore,
  {
    readonly addToInventory: (
      number: { readonly number: string; readonly number_type: NumberType },
      now: Date
    ) => Effect.Effect<PhoneNumber, PhoneNumberExists>
    /** Any number by id, whoever holds it (for the operator and for telling "taken" from "missing"). */
    readonly find: (id: PhoneNumberId) => Effect.Effect<Option.Option<PhoneNumber>>
    /** Numbers the organization holds or held, newest first. */
    readonly listOwned: (
      organizationId: OrganizationId,
      page: PageRequest
    ) => Effect.Effect<Page<PhoneNumber>>
    /** The organization's active number it has held longest (earliest activated, then lowest id), if any. */
    readonly oldestActive: (organizationId: OrganizationId) => Effect.Effect<Option.Option<PhoneNumber>>
    /**
     * Takes an available number (the given one, or any of the type, oldest first) for the organization and
     * activates it, atomically: two orders racing for the last number cannot both get it.
     */
    readonly claim: (
      organizationId: OrganizationId,
      choice: { readonly number_type: NumberType; readonly id?: PhoneNumberId },
      now: Date
    ) => Effect.Effect<Option.Option<PhoneNumber>>
    /** Marks an active number of the organization released; None when it is not active. */
    readonly release: (
      organizationId: OrganizationId,
      id: PhoneNumberId,
      now: Date
    ) => Effect.Effect<Option.Option<PhoneNumber>>
    readonly insertRequest: (request: NewNumberRequest, now: Date) => Effect.Effect<NumberRequest>
    readonly listRequests: (
      organizationId: OrganizationId,
      page: PageRequest
    ) => Effect.Effect<Page<NumberRequest>>
  }
>() {}
