import { Effect, Layer, Option } from "effect"
import type { OrganizationId } from "../organizations/Organization.js"
import * as Page from "../pagination/Page.js"
import type { Credential } from "../tools/Credential.js"
import { CredentialStore } from "../tools/CredentialStore.js"
import type { Tool } from "../tools/Tool.js"
import { ToolId } from "../tools/Tool.js"
import { ToolStore } from "../tools/ToolStore.js"
import { MemoryDatabaseTag, newestFirst } from "./MemoryDatabase.js"

/** Tools in memory. */
export const layerTools: Layer.Layer<ToolStore, never, MemoryDatabaseTag> = Layer.effect(
  ToolStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabaseTag
    const tools = db.table<string, Tool>("tools")
    const own = (organizationId: OrganizationId, uuid: string) => {
      const row = tools.get(uuid)
      return row?.organization_id === organizationId ? row : undefined
    }
    return {
      insert: (tool, now) =>
        db.atomically(() => {
          const row: Tool = {
            ...tool,
            id: ToolId.make(db.nextId("tools")),
            created_at: now,
            updated_at: null
          }
          tools.set(row.tool_uuid, row)
          return row
        }),
      find: (organizationId, uuid) => db.atomically(() => Option.fromNullable(own(organizationId, uuid))),
      list: (organizationId, filter, page) =>
        db.atomically(() =>
          Page.slice(
            newestFirst(
              tools
                .values()
                .filter(
                  (t) =>
                    t.organization_id === organizationId &&
                    (filter.status === undefined || t.status === filter.status)
                ),
              (t) => t.created_at,
              (t) => t.id
            ),
            page
          )
        ),
      update: (organizationId, uuid, patch, now) =>
        db.atomically(() => {
          const current = own(organizationId, uuid)
          if (current === undefined) return Option.none()
          const next: Tool = { ...current, ...patch, updated_at: now }
          tools.set(uuid, next)
          return Option.some(next)
        })
    }
  })
)

/** Credentials in memory (the process's memory is their only copy, so nothing to encrypt). */
export const layerCredentials: Layer.Layer<CredentialStore, never, MemoryDatabaseTag> = Layer.effect(
  CredentialStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabaseTag
    const credentials = db.table<string, Credential>("credentials")
    return {
      insert: (credential) =>
        db.atomically(() => {
          credentials.set(credential.credential_uuid, credential)
          return credential
        }),
      find: (organizationId, uuid) =>
        db.atomically(() =>
          Option.fromNullable(credentials.get(uuid)).pipe(
            Option.filter((c) => c.organization_id === organizationId)
          )
        ),
      list: (organizationId, page) =>
        db.atomically(() =>
          Page.slice(
            newestFirst(
              credentials.values().filter((c) => c.organization_id === organizationId),
              (c) => c.created_at,
              (c) => c.credential_uuid
            ),
            page
          )
        ),
      remove: (organizationId, uuid) =>
        db.atomically(
          () => credentials.get(uuid)?.organization_id === organizationId && credentials.delete(uuid)
        )
    }
  })
)
