import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Version 5, tools at call time: a run records the definition version of its agent it was placed with,
 * so a voice runtime reads that version's prompt, tools and transfer numbers for the whole call, whatever
 * the agent becomes meanwhile. Runs written before keep null (they are read with their agent's current
 * version). Each agent's current version gets the transfer numbers of its configuration (a version made
 * since carries its own). Tool calls are kept in the run's `logs`, which need no change.
 */
export const statements: ReadonlyArray<string> = [
  `ALTER TABLE runs ADD COLUMN agent_definition_id bigint REFERENCES agent_definitions (id)`,
  // Transfer numbers become part of each version: every agent's current version gets those of its
  // configuration, so a PATCH during a call placed with it no longer changes that call's numbers.
  `UPDATE agent_definitions AS d
   SET workflow_definition = jsonb_set(
     d.workflow_definition,
     '{transfer_numbers}',
     CASE WHEN jsonb_typeof(a.workflow_configurations -> 'transfer_numbers') = 'array'
       THEN a.workflow_configurations -> 'transfer_numbers' ELSE '[]'::jsonb END
   )
   FROM agents AS a
   WHERE a.current_definition_id = d.id AND NOT d.workflow_definition ? 'transfer_numbers'`
]

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true })
)
