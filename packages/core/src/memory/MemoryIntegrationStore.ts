import { Effect, Layer, Option } from "effect"
import type { IntegrationConnection } from "../integrations/IntegrationConnection.js"
import { IntegrationStore } from "../integrations/IntegrationStore.js"
import type { OrganizationId } from "../organizations/Organization.js"
import * as Page from "../pagination/Page.js"
import { MemoryDatabaseTag, newestFirst } from "./MemoryDatabase.js"

/** Integration connections in memory. */
export const layer: Layer.Layer<IntegrationStore, never, MemoryDatabaseTag> = Layer.effect(
  IntegrationStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabaseTag
    const connections = db.table<string, IntegrationConnection>("integration_connections")
    const own = (organizationId: OrganizationId, id: string) => {
      const row = connections.get(id)
      return row?.organization_id === organizationId ? row : undefined
    }
    return {
      insert: (connection) =>
        db.atomically(() => {
          connections.set(connection.id, connection)
          return connection
        }),
      find: (organizationId, id) => db.atomically(() => Option.fromNullable(own(organizationId, id))),
      list: (organizationId, page) =>
        db.atomically(() =>
          Page.slice(
            newestFirst(
              connections.values().filter((c) => c.organization_id === organizationId),
              (c) => c.created_at,
              (c) => c.id
            ),
            page
          )
        ),
      update: (organizationId, id, patch, now) =>
        db.atomically(() => {
          const current = own(organizationId, id)
          if (current === undefined) return Option.none()
          const next: IntegrationConnection = { ...current, ...patch, updated_at: now }
          connections.set(id, next)
          return Option.some(next)
        }),
      remove: (organizationId, id) =>
        db.atomically(() => own(organizationId, id) !== undefined && connections.delete(id))
    }
  })
)
