import { Clock, Context, Effect, Layer, Option } from "effect"
import type { OrganizationId } from "../organizations/Organization.js"
import { OrganizationStore } from "../organizations/OrganizationStore.js"
import type { EndedRunCursor } from "../runs/RunStore.js"
import { RunStore } from "../runs/RunStore.js"
import { BlobStore } from "./BlobStore.js"
import * as Retention from "./Retention.js"

/** What one pass did. */
export interface RetentionSweepReport {
  /** Runs whose files were due and are now gone from storage. */
  readonly runs: number
  /** Files that were actually there and were removed. */
  readonly files_removed: number
}

/** The most runs of one organization one pass handles: the next pass carries on where it stopped. */
export const batchSize = 100

/**
 * Removes recordings and transcripts that have outlived their organization's retention
 * (`recording_retention_days`, see `Retention`). The file keys stay on the run, so the run API answers
 * that the file was deleted. Repeating a pass is harmless: removing a missing file changes nothing.
 */
export class RetentionSweep extends Context.Tag("@voice-agent-platform/core/RetentionSweep")<
  RetentionSweep,
  {
    /** One bounded pass over every organization that has files. */
    readonly sweep: Effect.Effect<RetentionSweepReport>
  }
>() {}

export const layer = Layer.effect(
  RetentionSweep,
  Effect.gen(function* () {
    const runs = yield* RunStore
    const organizations = yield* OrganizationStore
    const blobs = yield* BlobStore
    // Where each organization's previous pass stopped. Runs up to it were swept and an ended run gets no
    // new files, so a pass never looks at them again; a restart starts over, which only repeats removals.
    const cursors = new Map<OrganizationId, EndedRunCursor>()

    const sweepOrganization = (organizationId: OrganizationId, now: Date) =>
      Effect.gen(function* () {
        const organization = yield* organizations.find(organizationId)
        if (Option.isNone(organization)) return { runs: 0, files_removed: 0 }
        const days = organization.value.recording_retention_days
        const cutoff = Retention.cutoff(days, now)
        if (cutoff === null) return { runs: 0, files_removed: 0 }
        const due = yield* runs.endedWithFiles(
          organizationId,
          cutoff,
          cursors.get(organizationId) ?? null,
          batchSize
        )
        let removed = 0
        for (const run of due) {
          if (!Retention.isDue(run, days, now)) continue
          for (const key of Retention.keys(run)) {
            if (yield* blobs.remove(key)) removed++
          }
          if (run.ended_at !== null) {
            cursors.set(organizationId, { ended_at: run.ended_at, workflow_run_id: run.workflow_run_id })
          }
        }
        return { runs: due.length, files_removed: removed }
      })

    return RetentionSweep.of({
      sweep: Effect.gen(function* () {
        const now = new Date(yield* Clock.currentTimeMillis)
        const organizationIds = yield* runs.organizationsWithFiles
        const reports = yield* Effect.forEach(organizationIds, (id) => sweepOrganization(id, now))
        return {
          runs: reports.reduce((sum, r) => sum + r.runs, 0),
          files_removed: reports.reduce((sum, r) => sum + r.files_removed, 0)
        }
      }).pipe(Effect.withSpan("RetentionSweep.sweep"))
    })
  })
)
