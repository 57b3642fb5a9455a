import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Version 12: the tokens `generate_with_ai` spends writing an agent's prompt are charged (issue 24).
 *
 * A ledger line of kind `prompt` charges them: of no run, like an `improvements` line, every one kept (the
 * unique index on `(run_id, kind)` never matches a null run). Both checks learn the new kind; they are
 * replaced `NOT VALID` (no existing row can break them: no row had the kind) so the swap takes no scan.
 */
export const statements: ReadonlyArray<string> = [
  `ALTER TABLE usage_records DROP CONSTRAINT usage_records_kind_check`,
  `ALTER TABLE usage_records ADD CONSTRAINT usage_records_kind_check
    CHECK (kind IN ('call', 'analysis', 'improvements', 'prompt')) NOT VALID`,
  `ALTER TABLE usage_records DROP CONSTRAINT usage_records_run_check`,
  `ALTER TABLE usage_records ADD CONSTRAINT usage_records_run_check
    CHECK (run_id IS NOT NULL OR kind IN ('improvements', 'prompt')) NOT VALID`
]

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true })
)
