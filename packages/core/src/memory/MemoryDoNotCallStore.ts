import { Effect, Layer, Option } from "effect"
import type { DoNotCallEntry } from "../do-not-call/DoNotCallEntry.js"
import { DoNotCallStore } from "../do-not-call/DoNotCallStore.js"
import { MemoryDatabase } from "./MemoryDatabase.js"
import { organizationTable } from "./OrganizationTable.js"

const keyOf = (organizationId: number, phoneNumber: string) => `${organizationId}:${phoneNumber}`

/** The Do not call list in memory. */
export const layer: Layer.Layer<DoNotCallStore, never, MemoryDatabase> = Layer.effect(
  DoNotCallStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    const entries = organizationTable(db.table<string, DoNotCallEntry>("do_not_call"), {
      at: (e) => e.created_at,
      id: (e) => e.phone_number
    })
    return {
      add: (entry) =>
        db.atomically(() => {
          const key = keyOf(entry.organization_id, entry.phone_number)
          const current = entries.get(key)
          const row = current === undefined ? entry : { ...current, reason: entry.reason }
          entries.set(key, row)
          return row
        }),
      find: (organizationId, phoneNumber) =>
        db.atomically(() => Option.fromNullable(entries.get(keyOf(organizationId, phoneNumber)))),
      listedAmong: (organizationId, phoneNumbers) =>
        db.atomically(
          () => new Set(phoneNumbers.filter((n) => entries.get(keyOf(organizationId, n)) !== undefined))
        ),
      remove: (organizationId, phoneNumber) =>
        db.atomically(() => entries.delete(keyOf(organizationId, phoneNumber))),
      list: (organizationId, page) => db.atomically(() => entries.newestPage(organizationId, page))
    }
  })
)
