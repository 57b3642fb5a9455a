import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import * as Rows from "../storage/Rows.js"
import { type SealedAt, SecretBox } from "./SecretBox.js"
import { EncryptionKeyMismatch } from "./ServerSecrets.js"

/** A column that holds sealed values, and the column whose value names each row. */
export interface SealedColumn {
  readonly table: string
  readonly column: string
  readonly keyColumn: string
}

/** Every column of the schema that holds sealed values. */
export const sealedColumns: ReadonlyArray<SealedColumn> = [
  { table: "credentials", column: "secret", keyColumn: "credential_uuid" },
  { table: "tools", column: "definition", keyColumn: "tool_uuid" },
  { table: "webhook_endpoints", column: "secret", keyColumn: "id" },
  { table: "integration_connections", column: "config", keyColumn: "id" },
  { table: "server_secrets", column: "value", keyColumn: "name" }
]

/** The place of one row's sealed value in `column`. */
export const at = (column: SealedColumn, key: string): SealedAt => ({
  table: column.table,
  column: column.column,
  key
})

/** Looks a sealed column up by its table (each table has one). */
export const of = (table: string): SealedColumn => sealedColumns.find((column) => column.table === table)!

/** What a query reads: rows by column name, a sealed column's value still sealed. */
export type SealedRows = Effect.Effect<ReadonlyArray<Record<string, unknown>>, SqlError.SqlError>

/**
 * Opens the sealed column of `table` in every row a query reads, each value bound to its row's key, so the
 * record's schema reads the plaintext: as the text it was (`"text"`) or parsed back from the JSON text it
 * was sealed as (`"json"`). A value that does not open is a defect, as any row that does not decode.
 */
export const opener = (box: SecretBox["Type"], table: string, plaintext: "text" | "json") => {
  const column = of(table)
  return (query: SealedRows): SealedRows =>
    Effect.map(query, (rows) =>
      rows.map((row) => {
        const opened = box.open(row[column.column] as string, at(column, row[column.keyColumn] as string))
        return { ...row, [column.column]: plaintext === "json" ? JSON.parse(opened) : opened }
      })
    )
}

const Unbound = Schema.Struct({ key: Schema.String, value: Schema.String })

/**
 * Re-seals, bound to their rows, the values an earlier version sealed without associated data (`v1:`),
 * so that after an upgrade no value opens outside its row. Each row is rewritten only if it still holds
 * the value read, so servers starting at once over one database do the work once and never overwrite a
 * newer value. A value this server's key cannot open means the key is not the database's: the server
 * stops, as `ServerSecrets.verifyKey` would.
 */
export const resealUnbound: Effect.Effect<number, EncryptionKeyMismatch, SqlClient.SqlClient | SecretBox> =
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const box = yield* SecretBox
    let resealed = 0
    for (const column of sealedColumns) {
      const rows = yield* Rows.all(Unbound)(sql`
        SELECT ${sql(column.keyColumn)}::text AS key, ${sql(column.column)} AS value
        FROM ${sql(column.table)} WHERE ${sql(column.column)} LIKE 'v1:%'`)
      for (const row of rows) {
        const plaintext = yield* Effect.try({
          try: () => box.openUnbound(row.value),
          catch: () => new EncryptionKeyMismatch()
        })
        yield* Rows.execute(sql`
          UPDATE ${sql(column.table)} SET ${sql(column.column)} = ${box.seal(plaintext, at(column, row.key))}
          WHERE ${sql(column.keyColumn)} = ${row.key} AND ${sql(column.column)} = ${row.value}`)
        resealed += 1
      }
    }
    return resealed
  })

/** `resealUnbound` as a layer, built after the migrations and before anything opens a secret. */
export const layerResealed: Layer.Layer<never, EncryptionKeyMismatch, SqlClient.SqlClient | SecretBox> =
  Layer.effectDiscard(resealUnbound)
