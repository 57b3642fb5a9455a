import { SqlClient } from "@effect/sql"
import { Improvement } from "@voice-agent-platform/core/improvements/Improvement.js"
import { ImprovementStore } from "@voice-agent-platform/core/improvements/ImprovementStore.js"
import { Effect, Layer } from "effect"
import * as Paging from "../storage/Paging.js"
import * as Rows from "../storage/Rows.js"

/** Improvement suggestions in PostgreSQL. A decision is one conditional UPDATE: of racing ones one wins. */
export const layer: Layer.Layer<ImprovementStore, never, SqlClient.SqlClient> = Layer.effect(
  ImprovementStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const one = Rows.first(Improvement)
    const improvementsList = Paging.list(
      sql,
      { table: "improvements", orderBy: "created_at DESC, id DESC" },
      Rows.all(Improvement)
    )

    return {
      insert: (improvement, now) =>
        Rows.single(Improvement)(sql`
          INSERT INTO improvements ${sql.insert({
            organization_id: improvement.organization_id,
            agent_id: improvement.agent_id,
            status: "pending",
            text: improvement.text,
            rationale: improvement.rationale,
            source_run_id: improvement.source_run_id,
            created_at: now,
            decided_at: null,
            applied_definition_id: null
          })} RETURNING *`),
      find: (organizationId, id) =>
        one(sql`SELECT * FROM improvements WHERE organization_id = ${organizationId} AND id = ${id}`),
      list: (organizationId, agentId, filter, page) => {
        const where = sql.and([
          sql`organization_id = ${organizationId}`,
          sql`agent_id = ${agentId}`,
          ...(filter.status === undefined ? [] : [sql`status = ${filter.status}`])
        ])
        return improvementsList(where, page)
      },
      decideIfPending: (organizationId, id, decision) =>
        one(sql`
          UPDATE improvements SET status = ${decision.status}, decided_at = ${decision.decided_at}
          WHERE organization_id = ${organizationId} AND id = ${id} AND status = 'pending'
          RETURNING *`),
      setAppliedDefinition: (organizationId, id, definitionId) =>
        one(sql`
          UPDATE improvements SET applied_definition_id = ${definitionId}
          WHERE organization_id = ${organizationId} AND id = ${id}
          RETURNING *`)
    }
  })
)
