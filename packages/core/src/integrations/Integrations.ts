import { Clock, Context, Effect, Layer, Option } from "effect"
import * as SpanAttributes from "../observability/SpanAttributes.js"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Page, PageRequest } from "../pagination/Page.js"
import { base62String, SecureRandom } from "../randomness/SecureRandom.js"
import { Transactions } from "../storage/Transactions.js"
import * as ConfigSecrets from "./ConfigSecrets.js"
import type { IntegrationConnection } from "./IntegrationConnection.js"
import { IntegrationConnectionNotFound } from "./IntegrationErrors.js"
import type { IntegrationPatch } from "./IntegrationStore.js"
import { IntegrationStore } from "./IntegrationStore.js"
import * as OAuthProviders from "./OAuthProviders.js"
import { OAuthProvidersConfig } from "./OAuthProvidersConfig.js"
import * as OperationSpans from "../observability/OperationSpans.js"

/** A new connection: enabled with an empty config unless told otherwise. */
export interface CreateConnection {
  readonly provider: string
  readonly name: string
  readonly config?: Readonly<Record<string, unknown>>
  readonly enabled?: boolean
}

/** What `PUT /integrations/{connection_id}` may change; an omitted field stays as it is. */
export interface ConnectionChanges {
  readonly name?: string
  readonly config?: Readonly<Record<string, unknown>>
  readonly enabled?: boolean
}

/** The prefix of connection ids: `conn_` + 20 base62 characters. */
export const connectionIdPrefix = "conn_"

/**
 * Connections to outside providers (CRMs, schedulers) and the OAuth providers the deployment offers.
 * Records carry their secrets in `config`; the API shows them through `ConfigSecrets.masked`.
 */
export class Integrations extends Context.Tag("@voice-agent-platform/core/Integrations")<
  Integrations,
  {
    /** Every known sign-in provider, and whether this deployment has an OAuth client for it. */
    readonly providers: Effect.Effect<ReadonlyArray<OAuthProviders.OAuthProvider>>
    readonly create: (
      organizationId: OrganizationId,
      request: CreateConnection
    ) => Effect.Effect<IntegrationConnection>
    readonly get: (
      organizationId: OrganizationId,
      id: string
    ) => Effect.Effect<IntegrationConnection, IntegrationConnectionNotFound>
    /** A page of connections, newest first. */
    readonly list: (
      organizationId: OrganizationId,
      page: PageRequest
    ) => Effect.Effect<Page<IntegrationConnection>>
    /**
     * Changes the given fields. A new config replaces the stored one, except masked secrets sent back
     * unchanged (see `ConfigSecrets.carryOver`), and clears a recorded `auth_error`.
     */
    readonly update: (
      organizationId: OrganizationId,
      id: string,
      changes: ConnectionChanges
    ) => Effect.Effect<IntegrationConnection, IntegrationConnectionNotFound>
    readonly remove: (
      organizationId: OrganizationId,
      id: string
    ) => Effect.Effect<void, IntegrationConnectionNotFound>
  }
>() {}

export const layer = Layer.effect(
  Integrations,
  Effect.gen(function* () {
    const connections = yield* IntegrationStore
    const transactions = yield* Transactions
    const random = yield* SecureRandom
    const clients = yield* OAuthProvidersConfig
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    const find = (organizationId: OrganizationId, id: string) =>
      Effect.flatMap(connections.find(organizationId, id), (connection) =>
        Option.isSome(connection)
          ? Effect.succeed(connection.value)
          : Effect.fail(new IntegrationConnectionNotFound({ connection_id: id }))
      )

    return {
      providers: Effect.withSpan(
        Effect.sync(() => OAuthProviders.list(clients)),
        "Integrations.providers"
      ),
      create: OperationSpans.fn("Integrations.create")(function* (organizationId, request) {
        const suffix = yield* Effect.provideService(base62String(20), SecureRandom, random)
        const at = yield* now
        return yield* connections.insert({
          id: `${connectionIdPrefix}${suffix}`,
          organization_id: organizationId,
          provider: request.provider,
          name: request.name,
          config: { ...request.config },
          enabled: request.enabled ?? true,
          auth_error: null,
          created_at: at,
          updated_at: at
        })
      }, SpanAttributes.organization),
      get: OperationSpans.fn("Integrations.get")(find, SpanAttributes.organization),
      list: OperationSpans.fn("Integrations.list")(
        (organizationId, page) => connections.list(organizationId, page),
        SpanAttributes.organization
      ),
      update: OperationSpans.fn("Integrations.update")(
        (organizationId, id, changes) =>
          transactions.run(
            Effect.gen(function* () {
              // held until the update commits: secrets carried over from it cannot undo a concurrent change
              const current = yield* Effect.flatMap(
                connections.findForUpdate(organizationId, id),
                Option.match({
                  onNone: () => Effect.fail(new IntegrationConnectionNotFound({ connection_id: id })),
                  onSome: Effect.succeed
                })
              )
              const patch: { -readonly [K in keyof IntegrationPatch]: IntegrationPatch[K] } = {}
              if (changes.name !== undefined) patch.name = changes.name
              if (changes.enabled !== undefined) patch.enabled = changes.enabled
              if (changes.config !== undefined) {
                patch.config = ConfigSecrets.carryOver(current.config, changes.config)
                // The recorded failure was about the old settings; the next use will tell about the new ones.
                patch.auth_error = null
              }
              const updated = yield* connections.update(organizationId, id, patch, yield* now)
              return Option.getOrElse(updated, () => current)
            })
          ),
        SpanAttributes.organization
      ),
      remove: OperationSpans.fn("Integrations.remove")(
        (organizationId, id) =>
          Effect.flatMap(connections.remove(organizationId, id), (removed) =>
            removed ? Effect.void : Effect.fail(new IntegrationConnectionNotFound({ connection_id: id }))
          ),
        SpanAttributes.organization
      )
    }
  })
)
