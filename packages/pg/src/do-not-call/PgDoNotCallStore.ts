import { SqlClient } from "@effect/sql"
import { DoNotCallEntry } from "@voice-agent-platform/core/do-not-call/DoNotCallEntry.js"
import { DoNotCallStore } from "@voice-agent-platform/core/do-not-call/DoNotCallStore.js"
import { Effect, Layer, Schema } from "effect"
import * as Paging from "../storage/Paging.js"
import * as Rows from "../storage/Rows.js"

const Listed = Schema.Struct({ phone_number: Schema.String })

/**
 * The Do not call list in PostgreSQL, one row per organization and number. Adding is one upsert: a listed
 * number keeps its row (and the time it was first listed) and takes the new reason.
 */
export const layer: Layer.Layer<DoNotCallStore, never, SqlClient.SqlClient> = Layer.effect(
  DoNotCallStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const doNotCallList = Paging.list(
      sql,
      { table: "do_not_call", orderBy: "created_at DESC, phone_number DESC" },
      Rows.all(DoNotCallEntry)
    )

    return {
      add: (entry) =>
        Rows.single(DoNotCallEntry)(sql`
          INSERT INTO do_not_call ${sql.insert({ ...entry })}
          ON CONFLICT (organization_id, phone_number) DO UPDATE SET reason = excluded.reason
          RETURNING *`),
      find: (organizationId, phoneNumber) =>
        Rows.first(DoNotCallEntry)(sql`
          SELECT * FROM do_not_call WHERE organization_id = ${organizationId} AND phone_number = ${phoneNumber}`),
      listedAmong: (organizationId, phoneNumbers) =>
        phoneNumbers.length === 0
          ? Effect.succeed(new Set<string>())
          : Rows.all(Listed)(
              sql`
              SELECT phone_number FROM do_not_call
              WHERE organization_id = ${organizationId} AND phone_number = ANY(${Array.from(phoneNumbers)})`
            ).pipe(Effect.map((rows) => new Set(rows.map((r) => r.phone_number)))),
      remove: (organizationId, phoneNumber) =>
        Rows.all(Schema.Unknown)(
          sql`
          DELETE FROM do_not_call WHERE organization_id = ${organizationId} AND phone_number = ${phoneNumber}
          RETURNING 1 AS removed`
        ).pipe(Effect.map((rows) => rows.length > 0)),
      list: (organizationId, page) => doNotCallList(sql`organization_id = ${organizationId}`, page)
    }
  })
)
