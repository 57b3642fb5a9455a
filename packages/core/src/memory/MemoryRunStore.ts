import { Effect, Layer } from "effect"
import type { Run } from "../runs/Run.js"
import { RunId } from "../runs/RunId.js"
import { RunStore } from "../runs/RunStore.js"
import { MemoryDatabaseTag } from "./MemoryDatabase.js"
import { organizationTable } from "./OrganizationTable.js"

/** Runs in memory. */
export const layer: Layer.Layer<RunStore, never, MemoryDatabaseTag> = Layer.effect(
  RunStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabaseTag
    const runs = organizationTable(db.table<RunId, Run>("runs"), {
      at: (r) => r.created_at,
      id: (r) => r.workflow_run_id
    })
    return {
      insert: (run, now) =>
        db.atomically(() => {
          const row: Run = { ...run, workflow_run_id: RunId.make(db.nextId("runs")), created_at: now }
          runs.set(row.workflow_run_id, row)
          return row
        }),
      find: (organizationId, id) => db.atomically(() => runs.findOwn(organizationId, id)),
      list: (organizationId, agentId, filter, page) =>
        db.atomically(() =>
          runs.newestPage(
            organizationId,
            page,
            (r) =>
              r.workflow_id === agentId &&
              (filter.status === undefined || r.status === filter.status) &&
              (filter.created_after === undefined ||
                r.created_at.getTime() >= filter.created_after.getTime()) &&
              (filter.created_before === undefined ||
                r.created_at.getTime() < filter.created_before.getTime())
          )
        ),
      update: (organizationId, id, patch) =>
        db.atomically(() => runs.replaceOwn(organizationId, id, (run) => ({ ...run, ...patch }))),
      countByAgent: (organizationId, agentId) =>
        db.atomically(() => runs.ownRows(organizationId, (r) => r.workflow_id === agentId).length),
      remove: (organizationId, id) => db.atomically(() => runs.removeOwn(organizationId, id))
    }
  })
)
