import { Clock, Context, Effect, Layer, Option, Redacted } from "effect"
import * as SpanAttributes from "../observability/SpanAttributes.js"
import type { OrganizationId } from "../organizations/Organization.js"
import * as Page from "../pagination/Page.js"
import { SecureRandom, uuidV4 } from "../randomness/SecureRandom.js"
import { Transactions } from "../storage/Transactions.js"
import type { Credential } from "./Credential.js"
import type { CreateCredentialRequest } from "./CredentialRequest.js"
import { CredentialStore } from "./CredentialStore.js"
import { CredentialInUse, CredentialNotFound } from "./ToolErrors.js"
import { ToolStore } from "./ToolStore.js"
import * as OperationSpans from "../observability/OperationSpans.js"

/**
 * Stored secrets HTTP API tools authenticate with. Records carry the secret (as `Redacted`, so it never
 * lands in a log); nothing in the API shows it.
 */
export class Credentials extends Context.Tag("@voice-agent-platform/core/Credentials")<
  Credentials,
  {
    readonly create: (
      organizationId: OrganizationId,
      request: CreateCredentialRequest
    ) => Effect.Effect<Credential>
    readonly get: (
      organizationId: OrganizationId,
      credentialUuid: string
    ) => Effect.Effect<Credential, CredentialNotFound>
    /** A page of credentials, newest first. */
    readonly list: (
      organizationId: OrganizationId,
      page: Page.PageRequest
    ) => Effect.Effect<Page.Page<Credential>>
    /** Deletes the credential, unless an active tool authenticates with it. */
    readonly remove: (
      organizationId: OrganizationId,
      credentialUuid: string
    ) => Effect.Effect<void, CredentialNotFound | CredentialInUse>
  }
>() {}

export const layer = Layer.effect(
  Credentials,
  Effect.gen(function* () {
    const credentials = yield* CredentialStore
    const tools = yield* ToolStore
    const transactions = yield* Transactions
    const random = yield* SecureRandom

    const find = (organizationId: OrganizationId, credentialUuid: string) =>
      Effect.flatMap(credentials.find(organizationId, credentialUuid), (credential) =>
        Option.isSome(credential)
          ? Effect.succeed(credential.value)
          : Effect.fail(new CredentialNotFound({ credential_uuid: credentialUuid }))
      )

    return {
      create: OperationSpans.fn("Credentials.create")(function* (organizationId, request) {
        const credentialUuid = yield* Effect.provideService(uuidV4, SecureRandom, random)
        return yield* credentials.insert({
          credential_uuid: credentialUuid,
          organization_id: organizationId,
          name: request.name,
          kind: request.kind,
          header_name: request.kind === "api_key_header" ? (request.header_name ?? null) : null,
          secret: Redacted.make(request.secret),
          created_at: new Date(yield* Clock.currentTimeMillis)
        })
      }, SpanAttributes.organization),
      get: OperationSpans.fn("Credentials.get")(find, SpanAttributes.organization),
      list: OperationSpans.fn("Credentials.list")(
        (organizationId, page) => credentials.list(organizationId, page),
        SpanAttributes.organization
      ),
      remove: OperationSpans.fn("Credentials.remove")(
        (organizationId, credentialUuid) =>
          // One transaction with tool writes, so a tool cannot start using the credential mid-delete.
          transactions.run(
            Effect.gen(function* () {
              // Held until the delete commits; a tool write holds it too while it checks the credential.
              yield* Effect.flatMap(
                credentials.findForUpdate(organizationId, credentialUuid),
                Option.match({
                  onNone: () => Effect.fail(new CredentialNotFound({ credential_uuid: credentialUuid })),
                  onSome: Effect.succeed
                })
              )
              const users = yield* tools.activeUsingCredential(organizationId, credentialUuid)
              if (users.length > 0)
                return yield* new CredentialInUse({ credential_uuid: credentialUuid, tool_uuids: users })
              yield* credentials.remove(organizationId, credentialUuid)
            })
          ),
        SpanAttributes.organization
      )
    }
  })
)
