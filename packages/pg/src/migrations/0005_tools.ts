import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Version 5, tools at call time: a run records the definition version of its agent it was placed with,
 * so a voice runtime reads that version's prompt, tools and transfer numbers for the whole call, whatever
 * the agent becomes meanwhile. Runs written before keep null (they are read with their agent's current
 * version). Tool calls are kept in the run's `logs`, which need no change.
 */
export const statements: ReadonlyArray<string> = [
  `ALTER TABLE runs ADD COLUMN agent_definition_id bigint REFERENCES agent_definitions (id)`
]

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true })
)
