import type { Page } from "@voice-agent-platform/core"
import type { RunSummaryResponse } from "@voice-agent-platform/contract/conversations/ConversationsApi.js"

type RunSummary = typeof RunSummaryResponse.Type

/** The encoded form of one run of the list, field for field in the schema's order. */
const encoded = (run: RunSummary) => ({
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

/**
 * A page of the runs list as the JSON text of its answer, written directly: the very bytes that encoding
 * it with its schema (`PageOf(RunSummaryResponse)`) and serialising would give (a property test holds it
 * to that), without the schema walk over 50 runs and their free-form contexts on every request. The runs
 * were decoded with the record's schema when they were read, so there is nothing left to check.
 */
export const runPageJson = (page: Page.Page<RunSummary>): string =>
  JSON.stringify({
    items: page.items.map(encoded),
    total_count: page.total_count,
    total_pages: page.total_pages,
    page: page.page,
    limit: page.limit
  })
