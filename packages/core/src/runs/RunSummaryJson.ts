import type { RunSummary } from "./Run.js"

/**
 * A run of an agent's list as the API writes it: the summary's fields but its organization, in this
 * order, instants as ISO-8601 text in UTC with milliseconds (`toISOString`). A store that writes the list
 * itself (`RunStore.listEncoded`) writes exactly this; the API's `RunSummaryResponse` encodes to it (a
 * test holds the two together).
 */
export const summaryJson = (run: RunSummary) => ({
  workflow_run_id: run.workflow_run_id,
  workflow_id: run.workflow_id,
  mode: run.mode,
  status: run.status,
  initial_context: run.initial_context,
  gathered_context: run.gathered_context,
  duration_seconds: run.duration_seconds,
  created_at: run.created_at.toISOString(),
  ended_at: run.ended_at === null ? null : run.ended_at.toISOString()
})

/** A page's runs as the JSON text of the list's `items`. */
export const itemsJson = (runs: ReadonlyArray<RunSummary>): string => JSON.stringify(runs.map(summaryJson))
