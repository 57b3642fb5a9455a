import { SqlClient } from "@effect/sql"
import { Trigger } from "@voice-agent-platform/core/triggers/Trigger.js"
import { TriggerStore } from "@voice-agent-platform/core/triggers/TriggerStore.js"
import { Effect, Layer } from "effect"
import * as Paging from "../storage/Paging.js"
import * as Rows from "../storage/Rows.js"

/** A jsonb value as a parameter: its JSON text, which the column (or a `::jsonb` cast) reads. */
const json = (value: unknown): string => JSON.stringify(value)

/** Triggers in PostgreSQL, newest first (ties by id, in code-unit order: the column is COLLATE "C"). */
export const layer: Layer.Layer<TriggerStore, never, SqlClient.SqlClient> = Layer.effect(
  TriggerStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const one = Rows.first(Trigger)
    const triggersList = Paging.list(
      sql,
      { table: "triggers", orderBy: "created_at DESC, trigger_id DESC" },
      Rows.all(Trigger)
    )

    return {
      insert: (trigger) =>
        Rows.single(Trigger)(sql`
          INSERT INTO triggers ${sql.insert({ ...trigger, initial_context: json(trigger.initial_context) })}
          RETURNING *`),
      find: (organizationId, id) =>
        one(sql`SELECT * FROM triggers WHERE organization_id = ${organizationId} AND trigger_id = ${id}`),
      list: (organizationId, filter, page) => {
        const where = sql.and([
          sql`organization_id = ${organizationId}`,
          ...(filter.status === undefined ? [] : [sql`status = ${filter.status}`])
        ])
        return triggersList(where, page)
      },
      archive: (organizationId, id) =>
        one(sql`
          UPDATE triggers SET status = 'archived'
          WHERE organization_id = ${organizationId} AND trigger_id = ${id}
          RETURNING *`)
    }
  })
)
