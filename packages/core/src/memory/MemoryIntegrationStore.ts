import { Effect, Layer, Option } from "effect"
import type { IntegrationConnection } from "../integrations/IntegrationConnection.js"
import { IntegrationStore } from "../integrations/IntegrationStore.js"
import { MemoryDatabase } from "./MemoryDatabase.js"
import { byCreation, organizationTable } from "./OrganizationTable.js"

/** Integration connections in memory. */
export const layer: Layer.Layer<IntegrationStore, never, MemoryDatabase> = Layer.effect(
  IntegrationStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    const connections = organizationTable(
      db.table<string, IntegrationConnection>("integration_connections"),
      byCreation
    )
    return {
      insert: (connection) =>
        db.atomically(() => {
          connections.set(connection.id, connection)
          return connection
        }),
      find: (organizationId, id) => db.atomically(() => connections.findOwn(organizationId, id)),
      // In memory a transaction already excludes every other access: there is nothing more to hold.
      findForUpdate: (organizationId, id) => db.atomically(() => connections.findOwn(organizationId, id)),
      list: (organizationId, page) => db.atomically(() => connections.newestPage(organizationId, page)),
      update: (organizationId, id, patch, now) =>
        db.atomically(() =>
          connections.replaceOwn(organizationId, id, (connection) => ({
            ...connection,
            ...patch,
            updated_at: now
          }))
        ),
      remove: (organizationId, id) =>
        db.atomically(() => Option.isSome(connections.removeOwn(organizationId, id)))
    }
  })
)
