import { Effect, Layer } from "effect"
import type { Trigger } from "../triggers/Trigger.js"
import { TriggerStore } from "../triggers/TriggerStore.js"
import { MemoryDatabase } from "./MemoryDatabase.js"
import { organizationTable } from "./OrganizationTable.js"

/** Triggers in memory. */
export const layer: Layer.Layer<TriggerStore, never, MemoryDatabase> = Layer.effect(
  TriggerStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    const triggers = organizationTable(db.table<string, Trigger>("triggers"), {
      at: (t) => t.created_at,
      id: (t) => t.trigger_id
    })
    return {
      insert: (trigger) =>
        db.atomically(() => {
          triggers.set(trigger.trigger_id, trigger)
          return trigger
        }),
      find: (organizationId, id) => db.atomically(() => triggers.findOwn(organizationId, id)),
      list: (organizationId, filter, page) =>
        db.atomically(() =>
          triggers.newestPage(
            organizationId,
            page,
            (t) => filter.status === undefined || t.status === filter.status
          )
        ),
      archive: (organizationId, id) =>
        db.atomically(() =>
          triggers.replaceOwn(organizationId, id, (t) => ({ ...t, status: "archived" as const }))
        )
    }
  })
)
