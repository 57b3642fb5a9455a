/**
 * The billing ledger: one line per run (the run id is unique), kept after its run is erased, so the run id
 * references nothing.
 */
export const usage: ReadonlyArray<string> = [
  `CREATE TABLE usage_records (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    organization_id bigint NOT NULL REFERENCES organizations (id),
    run_id bigint NOT NULL UNIQUE CHECK (run_id > 0),
    agent_id bigint NOT NULL CHECK (agent_id > 0),
    mode text NOT NULL,
    duration_seconds integer NOT NULL CHECK (duration_seconds >= 0),
    cost bigint NOT NULL CHECK (cost BETWEEN -1000000000000000 AND 1000000000000000),
    currency text NOT NULL CHECK (currency = 'PLN'),
    recorded_at timestamptz NOT NULL
  )`,
  // Lines of a period newest first; the totals of a period are summed from the index alone.
  `CREATE INDEX usage_records_by_organization ON usage_records (organization_id, recorded_at DESC, id DESC)
    INCLUDE (duration_seconds, cost)`
]
