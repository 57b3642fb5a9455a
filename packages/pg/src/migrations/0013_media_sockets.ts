import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Version 13: a real call's media socket is bound to the call that was dialed (issue 27's review).
 *
 * `carrier_call_id` is the carrier's id of the run's call (Twilio's CallSid), written when the dial
 * succeeds; `media_connected_at` is when the call's media socket was taken, set once (where null), so a
 * second socket for the run — on this server or another — is refused. Both are null for every run before
 * (none is live through a carrier in an existing database: nothing dialed one) and for simulated calls.
 */
export const statements: ReadonlyArray<string> = [
  `ALTER TABLE runs ADD COLUMN carrier_call_id text, ADD COLUMN media_connected_at timestamptz`
]

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true })
)
