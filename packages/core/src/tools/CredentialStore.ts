import { Context, type Effect, type Option } from "effect"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Page, PageRequest } from "../pagination/Page.js"
import type { Credential } from "./Credential.js"

/**
 * Storage of credentials. An adapter that persists them must keep the secret encrypted at rest; the
 * in-memory adapter holds it only in process memory.
 */
export class CredentialStore extends Context.Tag("@voice-agent-platform/core/CredentialStore")<
  CredentialStore,
  {
    readonly insert: (credential: Credential) => Effect.Effect<Credential>
    readonly find: (
      organizationId: OrganizationId,
      credentialUuid: string
    ) => Effect.Effect<Option.Option<Credential>>
    /** The same, held until the surrounding transaction ends (a row lock in SQL), for a read-decide-write. */
    readonly findForUpdate: (
      organizationId: OrganizationId,
      credentialUuid: string
    ) => Effect.Effect<Option.Option<Credential>>
    readonly list: (organizationId: OrganizationId, page: PageRequest) => Effect.Effect<Page<Credential>>
    readonly remove: (organizationId: OrganizationId, credentialUuid: string) => Effect.Effect<boolean>
  }
>() {}
