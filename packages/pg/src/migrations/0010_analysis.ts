import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** The bounds of a money column, as `cost` has them since version 1. */
const moneyBounds = "BETWEEN -1000000000000000 AND 1000000000000000"

/**
 * Version 10: agents that think (a language model behind conversations, and analysis after them).
 *
 * - Runs carry what the analysis found (`summary`, `analysis_status`, `analysis_error`), the tokens their
 *   language-model requests used (`model_prompt_tokens`, `model_completion_tokens`: `bigint`, as they add
 *   up over a whole chat and its analysis with no bound, and an `integer` counter that overflowed would
 *   fail the conversation's next request), what those tokens cost (`model_cost`, bounded as `cost`), when
 *   a chat last had a message (`last_activity_at`, with the partial index the idle sweep reads), and
 *   whether the run was ever given a `call_analysis` job (`analysis_job_added`: a run is analysed once, also
 *   after its job finished and left the queue), and who holds a chat's turn until when (`turn_holder`,
 *   `turn_until`: messages to one chat are answered one after the other, whichever servers receive them).
 * - Ledger lines have a kind (`call`, `analysis`, `improvements`) and the tokens they charge; an
 *   `improvements` line may have no run. One line per run and kind for `call` and `analysis` (the unique
 *   run id becomes a unique (run, kind) for them); `improvements` lines are all kept. The period index the
 *   totals and reports read carries the kind, so they stay index-only while counting `call` lines alone.
 * - `analysis_jobs`, the durable queue of analysis work (`AnalysisJobStore`), claimed under leases; a
 *   run's job goes with the run (ON DELETE CASCADE). `agent_analysis_counts`, each agent's analysed runs.
 * - Webhook deliveries accept `call.analyzed`.
 *
 * No table is rewritten: every column added has a constant default or none. Their CHECKs are added
 * `NOT VALID`: the rows already there hold the new columns' defaults (or, for the widened event types, a
 * value the previous check accepted), which pass, so validating would only scan the whole table under
 * the migration's exclusive lock; new and updated rows are checked as with any constraint.
 */
export const statements: ReadonlyArray<string> = [
  // Runs
  `ALTER TABLE runs
    ADD COLUMN summary text,
    ADD COLUMN analysis_status text,
    ADD COLUMN analysis_error text,
    ADD COLUMN model_prompt_tokens bigint NOT NULL DEFAULT 0,
    ADD COLUMN model_completion_tokens bigint NOT NULL DEFAULT 0,
    ADD COLUMN model_cost bigint,
    ADD COLUMN last_activity_at timestamptz,
    ADD COLUMN analysis_job_added boolean NOT NULL DEFAULT false,
    ADD COLUMN turn_holder text,
    ADD COLUMN turn_until timestamptz`,
  `ALTER TABLE runs ADD CONSTRAINT runs_analysis_status_check
    CHECK (analysis_status IN ('pending', 'completed', 'failed', 'skipped')) NOT VALID`,
  `ALTER TABLE runs ADD CONSTRAINT runs_model_prompt_tokens_check CHECK (model_prompt_tokens >= 0) NOT VALID`,
  `ALTER TABLE runs ADD CONSTRAINT runs_model_completion_tokens_check
    CHECK (model_completion_tokens >= 0) NOT VALID`,
  `ALTER TABLE runs ADD CONSTRAINT runs_model_cost_check CHECK (model_cost ${moneyBounds}) NOT VALID`,
  // The idle sweep: chats not ended (one not started has activity only when its first message failed),
  // longest idle first. The store's query repeats the predicate.
  `CREATE INDEX runs_idle_chats ON runs (last_activity_at, workflow_run_id)
    WHERE mode = 'chat' AND status IN ('initialized', 'in_progress')`,
  // The ledger
  `ALTER TABLE usage_records
    ADD COLUMN kind text NOT NULL DEFAULT 'call',
    ADD COLUMN prompt_tokens bigint NOT NULL DEFAULT 0,
    ADD COLUMN completion_tokens bigint NOT NULL DEFAULT 0`,
  `ALTER TABLE usage_records ADD CONSTRAINT usage_records_kind_check
    CHECK (kind IN ('call', 'analysis', 'improvements')) NOT VALID`,
  `ALTER TABLE usage_records ADD CONSTRAINT usage_records_prompt_tokens_check CHECK (prompt_tokens >= 0) NOT VALID`,
  `ALTER TABLE usage_records ADD CONSTRAINT usage_records_completion_tokens_check
    CHECK (completion_tokens >= 0) NOT VALID`,
  `ALTER TABLE usage_records ALTER COLUMN run_id DROP NOT NULL`,
  `ALTER TABLE usage_records ADD CONSTRAINT usage_records_run_check
    CHECK (run_id IS NOT NULL OR kind = 'improvements') NOT VALID`,
  `ALTER TABLE usage_records DROP CONSTRAINT usage_records_run_id_key`,
  `CREATE UNIQUE INDEX usage_records_per_run ON usage_records (run_id, kind) WHERE kind <> 'improvements'`,
  `DROP INDEX usage_records_for_reports`,
  `CREATE INDEX usage_records_for_reports ON usage_records (organization_id, recorded_at)
    INCLUDE (kind, agent_id, duration_seconds, cost)`,
  // The analysis queue. Its ids are never shown: an identity.
  `CREATE TABLE analysis_jobs (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    organization_id bigint NOT NULL REFERENCES organizations (id),
    kind text NOT NULL CHECK (kind IN ('call_analysis', 'improvement_suggestions')),
    run_id bigint UNIQUE REFERENCES runs (workflow_run_id) ON DELETE CASCADE,
    agent_id bigint NOT NULL CHECK (agent_id > 0),
    attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at timestamptz NOT NULL,
    last_error text,
    created_at timestamptz NOT NULL,
    lease text,
    lease_until timestamptz,
    CHECK ((run_id IS NOT NULL) = (kind = 'call_analysis')),
    CHECK ((lease IS NULL) = (lease_until IS NULL))
  )`,
  // At most one improvements job of an agent waits (or is held) at a time.
  `CREATE UNIQUE INDEX analysis_jobs_improvements ON analysis_jobs (organization_id, agent_id)
    WHERE kind = 'improvement_suggestions'`,
  // Claims: the due jobs, oldest due first.
  `CREATE INDEX analysis_jobs_due ON analysis_jobs (next_attempt_at, id)`,
  `CREATE TABLE agent_analysis_counts (
    organization_id bigint NOT NULL REFERENCES organizations (id),
    agent_id bigint NOT NULL CHECK (agent_id > 0),
    analysed bigint NOT NULL CHECK (analysed > 0),
    PRIMARY KEY (organization_id, agent_id)
  )`,
  // Webhooks
  `ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_type_check`,
  `ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_event_type_check CHECK (event_type IN
    ('call.started', 'call.ended', 'call.deleted', 'call.analyzed', 'campaign.started', 'campaign.completed',
      'campaign.contact.skipped')) NOT VALID`
]

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true })
)
