import { SqlClient } from "@effect/sql"
import { Agent, AgentDefinition } from "@voice-agent-platform/core/agents/Agent.js"
import { AgentStore } from "@voice-agent-platform/core/agents/AgentStore.js"
import { Effect, Layer, Option, Schema } from "effect"
import * as Paging from "../storage/Paging.js"
import * as Rows from "../storage/Rows.js"

/** A jsonb value as a parameter: its JSON text, which the column (or a `::jsonb` cast) reads. */
const json = (value: unknown): string => JSON.stringify(value)

const NextId = Schema.Struct({ id: Schema.Number })
const NextVersion = Schema.Struct({ version: Schema.Number })

/**
 * Agents and their definition versions in PostgreSQL. A configuration patch is merged by one UPDATE
 * (`jsonb ||`), so concurrent patches of different fields both land; a new version is appended while the
 * agent's row is locked, so concurrent appends land one after the other, across processes.
 */
export const layer: Layer.Layer<AgentStore, never, SqlClient.SqlClient> = Layer.effect(
  AgentStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const oneAgent = Rows.first(Agent)

    const agentsList = Paging.list(
      sql,
      { table: "agents", orderBy: "created_at DESC, id DESC" },
      Rows.all(Agent)
    )
    const agentDefinitionsList = Paging.list(
      sql,
      { table: "agent_definitions", orderBy: "version DESC" },
      Rows.all(AgentDefinition)
    )

    return {
      insert: ({ workflow_definition, ...fields }, now) =>
        Effect.gen(function* () {
          // The agent points at its first version and the version at its agent: the version's id is
          // drawn first (the agent's pointer is checked at commit).
          const { id: definitionId } = yield* Rows.single(NextId)(
            sql`SELECT random_row_id('agent_definitions') AS id`
          )
          const agent = yield* Rows.single(Agent)(sql`
            INSERT INTO agents ${sql.insert({
              public_id: fields.public_id,
              organization_id: fields.organization_id,
              name: fields.name,
              status: fields.status,
              current_definition_id: definitionId,
              template_context_variables: json(fields.template_context_variables),
              call_disposition_codes: json(fields.call_disposition_codes),
              workflow_configurations: json(fields.workflow_configurations),
              created_at: now,
              updated_at: now
            })} RETURNING *`)
          const definition = yield* Rows.single(AgentDefinition)(sql`
            INSERT INTO agent_definitions (id, agent_id, organization_id, version, workflow_definition, created_at)
            VALUES (${definitionId}, ${agent.id}, ${agent.organization_id}, 1,
              ${json(workflow_definition)}, ${now})
            RETURNING *`)
          return { agent, definition }
        }).pipe(sql.withTransaction, Effect.orDie),

      find: (organizationId, ref) =>
        ref._tag === "Number"
          ? oneAgent(sql`SELECT * FROM agents WHERE organization_id = ${organizationId} AND id = ${ref.id}`)
          : oneAgent(
              sql`SELECT * FROM agents WHERE organization_id = ${organizationId} AND public_id = ${ref.publicId}`
            ),

      list: (organizationId, filter, page) => {
        const where = sql.and([
          sql`organization_id = ${organizationId}`,
          ...(filter.status === undefined ? [] : [sql`status = ${filter.status}`])
        ])
        return agentsList(where, page)
      },

      update: (organizationId, id, { workflow_configurations, ...patch }, now) => {
        const fields = {
          ...(patch.name === undefined ? {} : { name: patch.name }),
          ...(patch.status === undefined ? {} : { status: patch.status }),
          ...(patch.template_context_variables === undefined
            ? {}
            : { template_context_variables: json(patch.template_context_variables) }),
          ...(patch.call_disposition_codes === undefined
            ? {}
            : { call_disposition_codes: json(patch.call_disposition_codes) }),
          updated_at: now
        }
        // The merge reads the row as the UPDATE finds it (after any concurrent update committed).
        return oneAgent(sql`
          UPDATE agents SET ${sql.update(fields)},
            workflow_configurations = workflow_configurations || ${json(workflow_configurations ?? {})}::jsonb
          WHERE organization_id = ${organizationId} AND id = ${id}
          RETURNING *`)
      },

      findDefinition: (organizationId, id) =>
        Rows.first(AgentDefinition)(
          sql`SELECT * FROM agent_definitions WHERE organization_id = ${organizationId} AND id = ${id}`
        ),

      listDefinitions: (organizationId, agentId, page) => {
        const where = sql`organization_id = ${organizationId} AND agent_id = ${agentId}`
        return agentDefinitionsList(where, page)
      },

      appendDefinition: (organizationId, agentId, derive, now) =>
        Effect.gen(function* () {
          // The lock on the agent's row serialises appends to one agent, across processes.
          const locked = yield* oneAgent(sql`
            SELECT * FROM agents WHERE organization_id = ${organizationId} AND id = ${agentId} FOR UPDATE`)
          if (Option.isNone(locked)) return Option.none()
          const current = yield* Rows.first(AgentDefinition)(
            sql`SELECT * FROM agent_definitions WHERE id = ${locked.value.current_definition_id}`
          )
          if (Option.isNone(current)) return Option.none()
          const { version } = yield* Rows.single(NextVersion)(sql`
            SELECT coalesce(max(version), 0) + 1 AS version FROM agent_definitions WHERE agent_id = ${agentId}`)
          const definition = yield* Rows.single(AgentDefinition)(sql`
            INSERT INTO agent_definitions ${sql.insert({
              agent_id: agentId,
              organization_id: organizationId,
              version,
              workflow_definition: json(derive(current.value.workflow_definition)),
              created_at: now
            })} RETURNING *`)
          const agent = yield* Rows.single(Agent)(sql`
            UPDATE agents SET current_definition_id = ${definition.id}, updated_at = ${now}
            WHERE id = ${agentId} RETURNING *`)
          return Option.some({ agent, definition })
        }).pipe(sql.withTransaction, Effect.orDie)
    }
  })
)
