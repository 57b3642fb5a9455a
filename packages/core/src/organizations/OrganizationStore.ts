import { Context, type Effect, type Option } from "effect"
import type { MinorUnits } from "../money/Money.js"
import type { InsufficientBalance } from "./OrganizationErrors.js"
import type { Organization, OrganizationId } from "./Organization.js"

/** What a new organization is made of; the store assigns its id. */
export type NewOrganization = Omit<Organization, "id" | "created_at">

/** The organizations' settings that can change after creation. */
export type OrganizationPatch = Partial<
  Pick<Organization, "name" | "outbound_channels" | "recording_retention_days">
>

/** Storage of organizations and their balances. */
export class OrganizationStore extends Context.Tag("@voice-agent-platform/core/OrganizationStore")<
  OrganizationStore,
  {
    readonly insert: (organization: NewOrganization, now: Date) => Effect.Effect<Organization>
    readonly find: (id: OrganizationId) => Effect.Effect<Option.Option<Organization>>
    /** How many organizations exist (a fresh store has none). */
    readonly count: Effect.Effect<number>
    readonly update: (
      id: OrganizationId,
      patch: OrganizationPatch
    ) => Effect.Effect<Option.Option<Organization>>
    /** Adds a positive amount to the balance; None when the organization does not exist. */
    readonly credit: (id: OrganizationId, amount: MinorUnits) => Effect.Effect<Option.Option<Organization>>
    /**
     * Takes a positive `amount` from the balance only if the balance covers it, atomically (two debits racing for
     * the last złoty cannot both succeed). None when the organization does not exist.
     */
    readonly debit: (
      id: OrganizationId,
      amount: MinorUnits
    ) => Effect.Effect<Option.Option<Organization>, InsufficientBalance>
  }
>() {}
