import { Effect, Layer, Option } from "effect"
import type { Credential } from "../tools/Credential.js"
import { CredentialStore } from "../tools/CredentialStore.js"
import type { Tool } from "../tools/Tool.js"
import { ToolId } from "../tools/Tool.js"
import { ToolStore } from "../tools/ToolStore.js"
import * as ToolUpdate from "../tools/ToolUpdate.js"
import { MemoryDatabase } from "./MemoryDatabase.js"
import { byCreation, organizationTable } from "./OrganizationTable.js"

/** Tools in memory. */
export const layerTools: Layer.Layer<ToolStore, never, MemoryDatabase> = Layer.effect(
  ToolStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    const tools = organizationTable(db.table<string, Tool>("tools"), byCreation)
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
      find: (organizationId, uuid) => db.atomically(() => tools.findOwn(organizationId, uuid)),
      findMany: (organizationId, uuids) =>
        db.atomically(() =>
          [...new Set(uuids)].flatMap((uuid) => Option.toArray(tools.findOwn(organizationId, uuid)))
        ),
      // In memory a transaction already excludes every other access: there is nothing more to hold.
      findForUpdate: (organizationId, uuid) => db.atomically(() => tools.findOwn(organizationId, uuid)),
      activeUsingCredential: (organizationId, credentialUuid) =>
        db.atomically(() =>
          tools
            .ownRows(
              organizationId,
              (t) => t.status === "active" && ToolUpdate.credentialUuidOf(t.definition) === credentialUuid
            )
            .sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.id - b.id)
            .map((t) => t.tool_uuid)
        ),
      list: (organizationId, filter, page) =>
        db.atomically(() =>
          tools.newestPage(
            organizationId,
            page,
            (t) => filter.status === undefined || t.status === filter.status
          )
        ),
      update: (organizationId, uuid, patch, now) =>
        db.atomically(() =>
          tools.replaceOwn(organizationId, uuid, (tool) => ({ ...tool, ...patch, updated_at: now }))
        )
    }
  })
)

/** Credentials in memory (the process's memory is their only copy, so nothing to encrypt). */
export const layerCredentials: Layer.Layer<CredentialStore, never, MemoryDatabase> = Layer.effect(
  CredentialStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    const credentials = organizationTable(db.table<string, Credential>("credentials"), {
      at: (c) => c.created_at,
      id: (c) => c.credential_uuid
    })
    return {
      insert: (credential) =>
        db.atomically(() => {
          credentials.set(credential.credential_uuid, credential)
          return credential
        }),
      find: (organizationId, uuid) => db.atomically(() => credentials.findOwn(organizationId, uuid)),
      // In memory a transaction already excludes every other access: there is nothing more to hold.
      findForUpdate: (organizationId, uuid) => db.atomically(() => credentials.findOwn(organizationId, uuid)),
      list: (organizationId, page) => db.atomically(() => credentials.newestPage(organizationId, page)),
      remove: (organizationId, uuid) =>
        db.atomically(() => Option.isSome(credentials.removeOwn(organizationId, uuid)))
    }
  })
)
