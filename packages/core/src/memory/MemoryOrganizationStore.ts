import { Effect, Either, Layer, Option } from "effect"
import { MinorUnits } from "../money/Money.js"
import type { ApiKey } from "../organizations/ApiKey.js"
import { ApiKeyId } from "../organizations/ApiKey.js"
import { ApiKeyStore } from "../organizations/ApiKeyStore.js"
import type { Organization } from "../organizations/Organization.js"
import { OrganizationId } from "../organizations/Organization.js"
import { InsufficientBalance } from "../organizations/OrganizationErrors.js"
import { OrganizationStore } from "../organizations/OrganizationStore.js"
import { MemoryDatabaseTag } from "./MemoryDatabase.js"

/** Organizations in memory. */
export const layerOrganizations: Layer.Layer<OrganizationStore, never, MemoryDatabaseTag> = Layer.effect(
  OrganizationStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabaseTag
    const organizations = db.table<OrganizationId, Organization>("organizations")
    const change = (id: OrganizationId, f: (o: Organization) => Organization) => {
      const current = organizations.get(id)
      if (current === undefined) return Option.none()
      const next = f(current)
      organizations.set(id, next)
      return Option.some(next)
    }
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
      update: (id, patch) => db.atomically(() => change(id, (o) => ({ ...o, ...patch }))),
      credit: (id, amount) =>
        db.atomically(() => change(id, (o) => ({ ...o, balance: MinorUnits.make(o.balance + amount) }))),
      debit: (id, amount) =>
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
            return Either.right(change(id, (o) => ({ ...o, balance: MinorUnits.make(o.balance - amount) })))
          })
          .pipe(Effect.flatMap((result) => result))
    }
  })
)

/** API keys in memory. */
export const layerApiKeys: Layer.Layer<ApiKeyStore, never, MemoryDatabaseTag> = Layer.effect(
  ApiKeyStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabaseTag
    const keys = db.table<ApiKeyId, ApiKey>("api_keys")
    const organizations = db.table<OrganizationId, Organization>("organizations")
    return {
      insert: (key, now) =>
        db.atomically(() => {
          const row: ApiKey = {
            ...key,
            id: ApiKeyId.make(db.nextId("api_keys")),
            created_at: now,
            revoked_at: null
          }
          keys.set(row.id, row)
          return row
        }),
      findActiveByHash: (keyHash) =>
        db.atomically(() => {
          const apiKey = keys.values().find((k) => k.key_hash === keyHash && k.revoked_at === null)
          const organization = apiKey && organizations.get(apiKey.organization_id)
          return apiKey && organization ? Option.some({ apiKey, organization }) : Option.none()
        }),
      list: (organizationId) =>
        db.atomically(() =>
          keys
            .values()
            .filter((k) => k.organization_id === organizationId)
            .sort((a, b) => b.id - a.id)
        ),
      revoke: (id, now) =>
        db.atomically(() => {
          const current = keys.get(id)
          if (current === undefined) return Option.none()
          const next = current.revoked_at === null ? { ...current, revoked_at: now } : current
          keys.set(id, next)
          return Option.some(next)
        })
    }
  })
)
