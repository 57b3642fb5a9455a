import { SqlClient } from "@effect/sql"
import { Effect, Redacted, Schema } from "effect"
import * as crypto from "node:crypto"
import * as Rows from "../storage/Rows.js"

const Secret = Schema.Struct({ value: Schema.String })

/**
 * The shared secret called `name`: the one stored in the database, or, for the first server that asks, a
 * fresh random one (256 bits, base64) stored for every later server. Servers starting at once agree on one
 * value: the insert that loses the race keeps the winner's.
 */
export const shared = (name: string): Effect.Effect<Redacted.Redacted<string>, never, SqlClient.SqlClient> =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Rows.run(
      sql`INSERT INTO server_secrets (name, value)
          VALUES (${name}, ${crypto.randomBytes(32).toString("base64")})
          ON CONFLICT (name) DO NOTHING`
    ).pipe(
      Effect.zipRight(Rows.single(Secret)(sql`SELECT value FROM server_secrets WHERE name = ${name}`)),
      Effect.map((row) => Redacted.make(row.value))
    )
  )

/** The name of the download links' signing secret. */
export const linkSigning = "link_signing"
