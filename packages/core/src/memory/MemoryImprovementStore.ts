import { Effect, Layer, Option } from "effect"
import type { Improvement } from "../improvements/Improvement.js"
import { ImprovementId } from "../improvements/Improvement.js"
import { ImprovementStore } from "../improvements/ImprovementStore.js"
import type { OrganizationId } from "../organizations/Organization.js"
import * as Page from "../pagination/Page.js"
import { MemoryDatabaseTag, newestFirst } from "./MemoryDatabase.js"

/** Improvement suggestions in memory. */
export const layer: Layer.Layer<ImprovementStore, never, MemoryDatabaseTag> = Layer.effect(
  ImprovementStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabaseTag
    const improvements = db.table<ImprovementId, Improvement>("improvements")
    const own = (organizationId: OrganizationId, id: ImprovementId) => {
      const row = improvements.get(id)
      return row?.organization_id === organizationId ? row : undefined
    }
    return {
      insert: (improvement, now) =>
        db.atomically(() => {
          const row: Improvement = {
            ...improvement,
            id: ImprovementId.make(db.nextId("improvements")),
            status: "pending",
            created_at: now,
            decided_at: null,
            applied_definition_id: null
          }
          improvements.set(row.id, row)
          return row
        }),
      find: (organizationId, id) => db.atomically(() => Option.fromNullable(own(organizationId, id))),
      list: (organizationId, agentId, filter, page) =>
        db.atomically(() =>
          Page.slice(
            newestFirst(
              improvements
                .values()
                .filter(
                  (i) =>
                    i.organization_id === organizationId &&
                    i.agent_id === agentId &&
                    (filter.status === undefined || i.status === filter.status)
                ),
              (i) => i.created_at,
              (i) => i.id
            ),
            page
          )
        ),
      decideIfPending: (organizationId, id, decision) =>
        db.atomically(() => {
          const current = own(organizationId, id)
          if (current === undefined || current.status !== "pending") return Option.none()
          const next: Improvement = { ...current, ...decision }
          improvements.set(id, next)
          return Option.some(next)
        }),
      setAppliedDefinition: (organizationId, id, definitionId) =>
        db.atomically(() => {
          const current = own(organizationId, id)
          if (current === undefined) return Option.none()
          const next: Improvement = { ...current, applied_definition_id: definitionId }
          improvements.set(id, next)
          return Option.some(next)
        })
    }
  })
)
