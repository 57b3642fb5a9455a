import { Effect, Layer } from "effect"
import type { Improvement } from "../improvements/Improvement.js"
import { ImprovementId } from "../improvements/Improvement.js"
import { ImprovementStore } from "../improvements/ImprovementStore.js"
import { MemoryDatabase } from "./MemoryDatabase.js"
import { byCreation, organizationTable } from "./OrganizationTable.js"

/** Improvement suggestions in memory. */
export const layer: Layer.Layer<ImprovementStore, never, MemoryDatabase> = Layer.effect(
  ImprovementStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    const improvements = organizationTable(db.table<ImprovementId, Improvement>("improvements"), byCreation)
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
      find: (organizationId, id) => db.atomically(() => improvements.findOwn(organizationId, id)),
      list: (organizationId, agentId, filter, page) =>
        db.atomically(() =>
          improvements.newestPage(
            organizationId,
            page,
            (i) => i.agent_id === agentId && (filter.status === undefined || i.status === filter.status)
          )
        ),
      decideIfPending: (organizationId, id, decision) =>
        db.atomically(() =>
          improvements.replaceOwn(
            organizationId,
            id,
            (improvement) => ({ ...improvement, ...decision }),
            (improvement) => improvement.status === "pending"
          )
        ),
      setAppliedDefinition: (organizationId, id, definitionId) =>
        db.atomically(() =>
          improvements.replaceOwn(organizationId, id, (improvement) => ({
            ...improvement,
            applied_definition_id: definitionId
          }))
        )
    }
  })
)
