import type { RunSummary } from "./Run.js"

/**
 * A run of an agent's list as the API shows it: the summary's fields but its organization, in the
 * answer's order. The API's `RunSummaryResponse` is this (`RunResponses.runSummaryResponse`).
 */
export const listed = (run: RunSummary) => ({
  workflow_run_id: run.workflow_run_id,
  workflow_id: run.workflow_id,
  mode: run.mode,
  status: run.status,
  initial_context: run.initial_context,
  gathered_context: run.gathered_context,
  duration_seconds: run.duration_seconds,
  created_at: run.created_at,
  ended_at: run.ended_at
})

/**
 * A page's runs as the JSON text of the list's `items`, as the API writes them: `listed`'s fields,
 * instants as ISO-8601 text in UTC with milliseconds (`JSON.stringify` writes a Date with `toISOString`).
 * A store that writes the list itself (`RunStore.listEncoded`) writes exactly this; encoding the page
 * with the API's schema gives the same bytes (a test holds the two together).
 */
export const itemsJson = (runs: ReadonlyArray<RunSummary>): string => JSON.stringify(runs.map(listed))
