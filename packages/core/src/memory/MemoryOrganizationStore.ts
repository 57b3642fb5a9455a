import { Effect, Either, Layer, Option } from "effect"
import { MinorUnits } from "../money/Money.js"
import type { ApiKey } from "../organizations/ApiKey.js"
import { ApiKeyId } from "../organizations/ApiKey.js"
import { ApiKeyStore, type NewApiKey, Revocation } from "../organizations/ApiKeyStore.js"
import type { Organization } from "../organizations/Organization.js"
import { OrganizationId } from "../organizations/Organization.js"
import { InsufficientBalance } from "../organizations/OrganizationErrors.js"
import { OrganizationStore } from "../organizations/OrganizationStore.js"
import { MemoryDatabase, newestFirst } from "./MemoryDatabase.js"
import { byCreation, organizationTable } from "./OrganizationTable.js"

/** Amounts moved in or out of a balance are positive: a negative debit would be a credit in disguise. */
const positive = (amount: number) =>
  Number.isSafeInteger(amount) && amount > 0
    ? Effect.void
    : Effect.dieMessage(`balance changes take a positive whole amount of minor units, got ${amount}`)

/** Organizations in memory. */
export const layerOrganizations: Layer.Layer<OrganizationStore, never, MemoryDatabase> = Layer.effect(
  OrganizationStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    const organizations = db.table<OrganizationId, Organization>("organizations")
    return {
      insert: (organization, now) =>
        db.atomically(() => {
          const row: Organization = {
            ...organization,
            id: OrganizationId.make(db.nextId("organizations")),
            created_at: now
          }
          organizations.set(row.id, row)
          return row
        }),
      find: (id) => db.atomically(() => Option.fromNullable(organizations.get(id))),
      count: db.atomically(() => organizations.values().length),
      update: (id, patch) => db.atomically(() => organizations.replace(id, (o) => ({ ...o, ...patch }))),
      credit: (id, amount) =>
        positive(amount).pipe(
          Effect.zipRight(
            db.atomically(() =>
              organizations.replace(id, (o) => ({ ...o, balance: MinorUnits.make(o.balance + amount) }))
            )
          )
        ),
      debit: (id, amount) =>
        positive(amount).pipe(
          Effect.zipRight(
            db
              .atomically((): Either.Either<Option.Option<Organization>, InsufficientBalance> => {
                const current = organizations.get(id)
                if (current === undefined) return Either.right(Option.none())
                if (current.balance < amount) {
                  return Either.left(
                    new InsufficientBalance({
                      balance: current.balance,
                      required: amount,
                      top_up: MinorUnits.make(amount - current.balance)
                    })
                  )
                }
                return Either.right(
                  organizations.replace(id, (o) => ({ ...o, balance: MinorUnits.make(o.balance - amount) }))
                )
              })
              .pipe(Effect.flatMap((result) => result))
          )
        )
    }
  })
)

/** API keys in memory. */
export const layerApiKeys: Layer.Layer<ApiKeyStore, never, MemoryDatabase> = Layer.effect(
  ApiKeyStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    const keys = organizationTable(db.table<ApiKeyId, ApiKey>("api_keys"), byCreation)
    const organizations = db.table<OrganizationId, Organization>("organizations")
    const active = (organizationId: OrganizationId) =>
      keys.ownRows(organizationId, (key) => key.revoked_at === null).length
    const add = (key: NewApiKey, now: Date) => {
      const row: ApiKey = {
        ...key,
        id: ApiKeyId.make(db.nextId("api_keys")),
        created_at: now,
        last_used_at: null,
        revoked_at: null
      }
      keys.set(row.id, row)
      return row
    }
    return {
      insert: (key, now) => db.atomically(() => add(key, now)),
      insertWithin: (key, now, limit) =>
        db.atomically(() =>
          active(key.organization_id) >= limit ? Option.none() : Option.some(add(key, now))
        ),
      findActiveByHash: (keyHash) =>
        db.atomically(() => {
          const apiKey = keys.values().find((k) => k.key_hash === keyHash && k.revoked_at === null)
          const organization = apiKey && organizations.get(apiKey.organization_id)
          return apiKey && organization ? Option.some({ apiKey, organization }) : Option.none()
        }),
      list: (organizationId) =>
        db.atomically(() => newestFirst(keys.ownRows(organizationId), byCreation.at, byCreation.id)),
      listPage: (organizationId, page) => db.atomically(() => keys.newestPage(organizationId, page)),
      revoke: (id, now) =>
        db.atomically(() =>
          keys.replace(id, (key) => (key.revoked_at === null ? { ...key, revoked_at: now } : key))
        ),
      revokeUnlessLast: (organizationId, id, now) =>
        db.atomically(() => {
          const key = keys.own(organizationId, id)
          if (key === undefined) return Revocation.NotFound()
          if (key.revoked_at !== null) return Revocation.AlreadyRevoked({ key })
          if (active(organizationId) <= 1) return Revocation.LastActiveKey({ key })
          const revoked = { ...key, revoked_at: now }
          keys.set(id, revoked)
          return Revocation.Revoked({ key: revoked })
        }),
      recordUse: (id, at, since) =>
        db.atomically(() => {
          keys.replace(id, (key) =>
            key.last_used_at === null || key.last_used_at.getTime() < since.getTime()
              ? { ...key, last_used_at: at }
              : key
          )
        })
    }
  })
)
