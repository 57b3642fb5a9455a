import { SqlClient } from "@effect/sql"
import { Credential } from "@voice-agent-platform/core/tools/Credential.js"
import { CredentialStore } from "@voice-agent-platform/core/tools/CredentialStore.js"
import { Tool } from "@voice-agent-platform/core/tools/Tool.js"
import { ToolStore } from "@voice-agent-platform/core/tools/ToolStore.js"
import * as ToolUpdate from "@voice-agent-platform/core/tools/ToolUpdate.js"
import { Effect, Layer, Redacted, Schema } from "effect"
import * as SealedColumns from "../secrets/SealedColumns.js"
import { SecretBox } from "../secrets/SecretBox.js"
import * as Paging from "../storage/Paging.js"
import * as Rows from "../storage/Rows.js"

type Query = SealedColumns.SealedRows

const ToolUuid = Schema.Struct({ tool_uuid: Schema.String })
/** Where a tool's definition is sealed: bound to its `tool_uuid`. */
const toolAt = (toolUuid: string) => SealedColumns.at(SealedColumns.of("tools"), toolUuid)
/** Where a credential's secret is sealed: bound to its `credential_uuid`. */
const credentialAt = (credentialUuid: string) =>
  SealedColumns.at(SealedColumns.of("credentials"), credentialUuid)
/**
 * Tools in PostgreSQL. The definition may carry secrets (credential headers, an integration's `api_key`),
 * so its JSON text is sealed by the SecretBox on write and opened on read.
 */
export const layerTools: Layer.Layer<ToolStore, never, SqlClient.SqlClient | SecretBox> = Layer.effect(
  ToolStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const box = yield* SecretBox
    /** Rows with their definition opened, as the record schema reads them. */
    const opened = SealedColumns.opener(box, "tools", "json")
    const one = (query: Query) => Rows.first(Tool)(opened(query))
    const toolsList = Paging.list(sql, { table: "tools", orderBy: "created_at DESC, id DESC" }, (rows) =>
      Rows.all(Tool)(opened(rows))
    )

    return {
      insert: (tool, now) =>
        Rows.single(Tool)(
          opened(sql`
            INSERT INTO tools ${sql.insert({
              ...tool,
              definition: box.seal(JSON.stringify(tool.definition), toolAt(tool.tool_uuid)),
              credential_uuid: ToolUpdate.credentialUuidOf(tool.definition),
              created_by: tool.created_by === null ? null : JSON.stringify(tool.created_by),
              created_at: now,
              updated_at: null
            })} RETURNING *`)
        ),
      find: (organizationId, toolUuid) =>
        one(sql`SELECT * FROM tools WHERE organization_id = ${organizationId} AND tool_uuid = ${toolUuid}`),
      findMany: (organizationId, toolUuids) =>
        toolUuids.length === 0
          ? Effect.succeed([])
          : Rows.all(Tool)(
              opened(sql`
                SELECT * FROM tools
                WHERE organization_id = ${organizationId} AND tool_uuid = ANY(${[...new Set(toolUuids)]}::text[])`)
            ),
      activeUsingCredential: (organizationId, credentialUuid) =>
        Rows.all(ToolUuid)(
          sql`
          SELECT tool_uuid FROM tools
          WHERE organization_id = ${organizationId} AND credential_uuid = ${credentialUuid} AND status = 'active'
          ORDER BY created_at, id`
        ).pipe(Effect.map((rows) => rows.map((row) => row.tool_uuid))),
      findForUpdate: (organizationId, toolUuid) =>
        one(sql`
          SELECT * FROM tools WHERE organization_id = ${organizationId} AND tool_uuid = ${toolUuid} FOR UPDATE`),
      list: (organizationId, filter, page) => {
        const where = sql.and([
          sql`organization_id = ${organizationId}`,
          ...(filter.status === undefined ? [] : [sql`status = ${filter.status}`])
        ])
        return toolsList(where, page)
      },
      update: (organizationId, toolUuid, patch, now) => {
        const { definition, ...rest } = patch
        return one(sql`
          UPDATE tools SET ${sql.update({
            ...rest,
            ...(definition === undefined
              ? {}
              : {
                  definition: box.seal(JSON.stringify(definition), toolAt(toolUuid)),
                  credential_uuid: ToolUpdate.credentialUuidOf(definition)
                }),
            updated_at: now
          })}
          WHERE organization_id = ${organizationId} AND tool_uuid = ${toolUuid} RETURNING *`)
      }
    }
  })
)

/**
 * Credentials in PostgreSQL, their secret sealed by the SecretBox at rest.
 *
 * `find` locks the credential's row (`FOR UPDATE`) until the end of the caller's transaction. Deleting a
 * credential (`Credentials.remove`: find, look for active tools using it, remove) and creating or
 * changing a tool that uses it (`Tools.create`/`update`: find the credential, write the tool) each run in
 * one transaction that starts by finding the credential; the lock makes them take turns, so a deletion
 * either sees the new tool (and refuses) or is seen by the tool's write (which then finds no credential).
 * Outside a transaction the lock is released when the statement ends.
 */
export const layerCredentials: Layer.Layer<CredentialStore, never, SqlClient.SqlClient | SecretBox> =
  Layer.effect(
    CredentialStore,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const box = yield* SecretBox
      /** Rows with their secret opened, as the record schema reads them (it wraps it as Redacted). */
      const opened = SealedColumns.opener(box, "credentials", "text")
      const credentialsList = Paging.list(
        sql,
        { table: "credentials", orderBy: "created_at DESC, credential_uuid DESC" },
        (rows) => Rows.all(Credential)(opened(rows))
      )

      return {
        insert: (credential) =>
          Rows.single(Credential)(
            opened(sql`
              INSERT INTO credentials ${sql.insert({
                ...credential,
                secret: box.seal(Redacted.value(credential.secret), credentialAt(credential.credential_uuid))
              })} RETURNING *`)
          ),
        find: (organizationId, credentialUuid) =>
          Rows.first(Credential)(
            opened(sql`
              SELECT * FROM credentials
              WHERE organization_id = ${organizationId} AND credential_uuid = ${credentialUuid}`)
          ),
        findForUpdate: (organizationId, credentialUuid) =>
          Rows.first(Credential)(
            opened(sql`
              SELECT * FROM credentials
              WHERE organization_id = ${organizationId} AND credential_uuid = ${credentialUuid}
              FOR UPDATE`)
          ),
        list: (organizationId, page) => credentialsList(sql`organization_id = ${organizationId}`, page),
        remove: (organizationId, credentialUuid) =>
          sql`
            DELETE FROM credentials
            WHERE organization_id = ${organizationId} AND credential_uuid = ${credentialUuid}
            RETURNING credential_uuid`.pipe(
            Effect.orDie,
            Effect.map((rows) => rows.length > 0)
          )
      }
    })
  )
