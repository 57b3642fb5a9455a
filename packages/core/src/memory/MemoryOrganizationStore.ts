import { Effect, Either, Layer, Option } from "effect"
import { MinorUnits } from "../money/Money.js"
import type { ApiKey } from "../organizations/ApiKey.js"
import { ApiKeyId } from "../organizations/ApiKey.js"
import { ApiKeyStore } from "../organizations/ApiKeyStore.js"
import type { Organization } from "../organizations/Organization.js"
import { OrganizationId } from "../organizations/Organization.js"
import { InsufficientBalance } from "../organizations/OrganizationErrors.js"
import { OrganizationStore } from "../organizations/OrganizationStore.js"
import { MemoryDatabase } from "./MemoryDatabase.js"
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
    return {
      insert: (key, now) =>
        db.atomically(() => {
          const row: ApiKey = {
            ...key,
            id: ApiKeyId.make(db.nextNumber("api_keys")),
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
      list: (organizationId) => db.atomically(() => keys.ownRows(organizationId).sort((a, b) => b.id - a.id)),
      revoke: (id, now) =>
        db.atomically(() =>
          keys.replace(id, (key) => (key.revoked_at === null ? { ...key, revoked_at: now } : key))
        )
    }
  })
)
