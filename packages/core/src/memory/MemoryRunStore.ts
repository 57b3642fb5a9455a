import { Effect, Layer, Option } from "effect"
import type { OrganizationId } from "../organizations/Organization.js"
import * as Page from "../pagination/Page.js"
import type { Run } from "../runs/Run.js"
import { RunId } from "../runs/RunId.js"
import { RunStore } from "../runs/RunStore.js"
import { MemoryDatabaseTag, newestFirst } from "./MemoryDatabase.js"

/** Runs in memory. */
export const layer: Layer.Layer<RunStore, never, MemoryDatabaseTag> = Layer.effect(
  RunStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabaseTag
    const runs = db.table<RunId, Run>("runs")
    const own = (organizationId: OrganizationId, id: RunId) => {
      const row = runs.get(id)
      return row?.organization_id === organizationId ? row : undefined
    }
    return {
      insert: (run, now) =>
        db.atomically(() => {
          const row: Run = { ...run, workflow_run_id: RunId.make(db.nextId("runs")), created_at: now }
          runs.set(row.workflow_run_id, row)
          return row
        }),
      find: (organizationId, id) => db.atomically(() => Option.fromNullable(own(organizationId, id))),
      list: (organizationId, agentId, filter, page) =>
        db.atomically(() =>
          Page.slice(
            newestFirst(
              runs
                .values()
                .filter(
                  (r) =>
                    r.organization_id === organizationId &&
                    r.workflow_id === agentId &&
                    (filter.status === undefined || r.status === filter.status) &&
                    (filter.created_after === undefined ||
                      r.created_at.getTime() >= filter.created_after.getTime()) &&
                    (filter.created_before === undefined ||
                      r.created_at.getTime() < filter.created_before.getTime())
                ),
              (r) => r.created_at,
              (r) => r.workflow_run_id
            ),
            page
          )
        ),
      update: (organizationId, id, patch) =>
        db.atomically(() => {
          const current = own(organizationId, id)
          if (current === undefined) return Option.none()
          const next: Run = { ...current, ...patch }
          runs.set(id, next)
          return Option.some(next)
        }),
      countByAgent: (organizationId, agentId) =>
        db.atomically(
          () =>
            runs.values().filter((r) => r.organization_id === organizationId && r.workflow_id === agentId)
              .length
        ),
      remove: (organizationId, id) =>
        db.atomically(() => {
          const current = own(organizationId, id)
          if (current === undefined) return Option.none()
          runs.delete(id)
          return Option.some(current)
        })
    }
  })
)
