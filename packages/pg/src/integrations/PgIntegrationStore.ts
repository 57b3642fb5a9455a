import { SqlClient } from "@effect/sql"
import { IntegrationConnection } from "@voice-agent-platform/core/integrations/IntegrationConnection.js"
import { IntegrationStore } from "@voice-agent-platform/core/integrations/IntegrationStore.js"
import { Effect, Layer } from "effect"
import * as SealedColumns from "../secrets/SealedColumns.js"
import { SecretBox } from "../secrets/SecretBox.js"
import * as Paging from "../storage/Paging.js"
import * as Rows from "../storage/Rows.js"

type Query = SealedColumns.SealedRows

/** A JSON object for a `jsonb` parameter (or SQL NULL). */
const jsonOrNull = (value: object | null) => (value === null ? null : JSON.stringify(value))

/**
 * Integration connections in PostgreSQL. The free-form `config` holds tokens and passwords, so its JSON
 * text is sealed by the SecretBox on write and opened on read.
 */
export const layer: Layer.Layer<IntegrationStore, never, SqlClient.SqlClient | SecretBox> = Layer.effect(
  IntegrationStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const box = yield* SecretBox
    const seal = (id: string, config: object) =>
      box.seal(JSON.stringify(config), SealedColumns.at(SealedColumns.of("integration_connections"), id))
    /** Rows with their config opened, as the record schema reads them. */
    const opened = SealedColumns.opener(box, "integration_connections", "json")
    const one = (query: Query) => Rows.first(IntegrationConnection)(opened(query))
    const integrationConnectionsList = Paging.list(
      sql,
      { table: "integration_connections", orderBy: "created_at DESC, id DESC" },
      (rows) => Rows.all(IntegrationConnection)(opened(rows))
    )

    return {
      insert: (connection) =>
        Rows.single(IntegrationConnection)(
          opened(sql`
            INSERT INTO integration_connections ${sql.insert({
              ...connection,
              config: seal(connection.id, connection.config),
              auth_error: jsonOrNull(connection.auth_error)
            })} RETURNING *`)
        ),
      find: (organizationId, id) =>
        one(sql`
          SELECT * FROM integration_connections WHERE organization_id = ${organizationId} AND id = ${id}`),
      findForUpdate: (organizationId, id) =>
        one(sql`
          SELECT * FROM integration_connections
          WHERE organization_id = ${organizationId} AND id = ${id} FOR UPDATE`),
      list: (organizationId, page) =>
        integrationConnectionsList(sql`organization_id = ${organizationId}`, page),
      update: (organizationId, id, patch, now) => {
        const { config, auth_error, ...rest } = patch
        return one(sql`
          UPDATE integration_connections SET ${sql.update({
            ...rest,
            ...(config === undefined ? {} : { config: seal(id, config) }),
            ...(auth_error === undefined ? {} : { auth_error: jsonOrNull(auth_error) }),
            updated_at: now
          })}
          WHERE organization_id = ${organizationId} AND id = ${id} RETURNING *`)
      },
      remove: (organizationId, id) =>
        sql`
          DELETE FROM integration_connections WHERE organization_id = ${organizationId} AND id = ${id}
          RETURNING id`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.length > 0)
        )
    }
  })
)
