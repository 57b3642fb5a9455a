import { Effect, Layer, Option } from "effect"
import { CallFragmentStore } from "../calls/CallFragmentStore.js"
import type { OrganizationId } from "../organizations/Organization.js"
import { isFinal, type Run } from "../runs/Run.js"
import type { RunId } from "../runs/RunId.js"
import type { TranscriptFragment } from "../transcripts/Transcript.js"
import { MemoryDatabase } from "./MemoryDatabase.js"
import { ownedBy } from "./OrganizationTable.js"

interface LiveTranscript {
  readonly organization_id: OrganizationId
  readonly fragments: ReadonlyArray<TranscriptFragment>
}

/** Live calls' transcript fragments in memory, one row per run. */
export const layer: Layer.Layer<CallFragmentStore, never, MemoryDatabase> = Layer.effect(
  CallFragmentStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    const rows = db.table<RunId, LiveTranscript>("call_fragments")
    // the runs `MemoryRunStore` keeps: an append marks its run (`Run.fragments_kept`)
    const runs = db.table<RunId, Run>("runs")
    const append = (
      organizationId: OrganizationId,
      runId: RunId,
      fragments: ReadonlyArray<TranscriptFragment>
    ) => {
      if (fragments.length === 0) return
      const row = rows.get(runId)
      // Run ids are global: another organization's row under the id is never touched.
      if (row !== undefined && row.organization_id !== organizationId) return
      rows.set(runId, {
        organization_id: organizationId,
        fragments: [...(row?.fragments ?? []), ...fragments]
      })
      const run = runs.get(runId)
      if (run !== undefined && run.organization_id === organizationId && !run.fragments_kept) {
        runs.set(runId, { ...run, fragments_kept: true })
      }
    }
    return {
      append: (organizationId, runId, fragments) =>
        db.atomically(() => append(organizationId, runId, fragments)),
      appendWhileLive: (organizationId, runId, fragments, modelUsage) =>
        db.atomically(() => {
          const run = ownedBy(organizationId, runs.get(runId))
          if (run === undefined || isFinal(run.status)) return Option.none()
          append(organizationId, runId, fragments)
          if (modelUsage === undefined) return Option.some(run)
          const marked = runs.get(runId)!
          const counted: Run = {
            ...marked,
            model_prompt_tokens: marked.model_prompt_tokens + modelUsage.usage.prompt_tokens,
            model_completion_tokens: marked.model_completion_tokens + modelUsage.usage.completion_tokens,
            last_activity_at: modelUsage.lastActivityAt
          }
          runs.set(runId, counted)
          return Option.some(counted)
        }),
      list: (organizationId, runId) =>
        db.atomically(() => ownedBy(organizationId, rows.get(runId))?.fragments ?? []),
      clear: (organizationId, runId) =>
        db.atomically(() => {
          if (ownedBy(organizationId, rows.get(runId)) !== undefined) rows.delete(runId)
        })
    }
  })
)
