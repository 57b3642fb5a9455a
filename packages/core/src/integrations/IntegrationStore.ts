import { Context, type Effect, type Option } from "effect"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Page, PageRequest } from "../pagination/Page.js"
import type { IntegrationConnection } from "./IntegrationConnection.js"

export type IntegrationPatch = Partial<
  Pick<IntegrationConnection, "name" | "config" | "enabled" | "auth_error">
>

/** Storage of integration connections (string ids). */
export class IntegrationStore extends Context.Tag("@voice-agent-platform/core/IntegrationStore")<
  IntegrationStore,
  {
    readonly insert: (connection: IntegrationConnection) => Effect.Effect<IntegrationConnection>
    readonly find: (
      organizationId: OrganizationId,
      id: string
    ) => Effect.Effect<Option.Option<IntegrationConnection>>
    /** The same, held until the surrounding transaction ends (a row lock in SQL), for a read-decide-write. */
    readonly findForUpdate: (
      organizationId: OrganizationId,
      id: string
    ) => Effect.Effect<Option.Option<IntegrationConnection>>
    readonly list: (
      organizationId: OrganizationId,
      page: PageRequest
    ) => Effect.Effect<Page<IntegrationConnection>>
    readonly update: (
      organizationId: OrganizationId,
      id: string,
      patch: IntegrationPatch,
      now: Date
    ) => Effect.Effect<Option.Option<IntegrationConnection>>
    readonly remove: (organizationId: OrganizationId, id: string) => Effect.Effect<boolean>
  }
>() {}
