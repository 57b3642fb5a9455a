import { Context, type Effect, type Option } from "effect"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Page, PageRequest } from "../pagination/Page.js"
import type { DoNotCallEntry } from "./DoNotCallEntry.js"

/** The organization's Do not call list, keyed by E.164 number. */
export class DoNotCallStore extends Context.Tag("@voice-agent-platform/core/DoNotCallStore")<
  DoNotCallStore,
  {
    /** Adds a number; adding a listed number again keeps it listed and updates the reason. */
    readonly add: (entry: DoNotCallEntry) => Effect.Effect<DoNotCallEntry>
    readonly find: (
      organizationId: OrganizationId,
      phoneNumber: string
    ) => Effect.Effect<Option.Option<DoNotCallEntry>>
    /** Which of the numbers the organization's list holds: one lookup for many (the campaign dialer's). */
    readonly listedAmong: (
      organizationId: OrganizationId,
      phoneNumbers: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlySet<string>>
    /** False when the number was not listed. */
    readonly remove: (organizationId: OrganizationId, phoneNumber: string) => Effect.Effect<boolean>
    readonly list: (organizationId: OrganizationId, page: PageRequest) => Effect.Effect<Page<DoNotCallEntry>>
  }
>() {}
