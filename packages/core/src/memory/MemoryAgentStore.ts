import { Effect, Layer, Option } from "effect"
import type { Agent, AgentDefinition } from "../agents/Agent.js"
import { AgentDefinitionId, AgentId } from "../agents/AgentIds.js"
import type { AgentRef } from "../agents/AgentIds.js"
import { AgentStore } from "../agents/AgentStore.js"
import type { OrganizationId } from "../organizations/Organization.js"
import * as Page from "../pagination/Page.js"
import { MemoryDatabase } from "./MemoryDatabase.js"
import { byCreation, organizationTable, ownedBy } from "./OrganizationTable.js"

/** Agents and their definition versions in memory. */
export const layer: Layer.Layer<AgentStore, never, MemoryDatabase> = Layer.effect(
  AgentStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    const agents = organizationTable(db.table<AgentId, Agent>("agents"), byCreation)
    const definitions = organizationTable(
      db.table<AgentDefinitionId, AgentDefinition>("agent_definitions"),
      byCreation
    )

    const findAgent = (organizationId: OrganizationId, ref: AgentRef): Agent | undefined =>
      ref._tag === "Number"
        ? agents.own(organizationId, ref.id)
        : ownedBy(
            organizationId,
            agents.values().find((a) => a.public_id === ref.publicId)
          )
    const versionsOf = (agentId: AgentId) => definitions.values().filter((d) => d.agent_id === agentId)

    return {
      insert: ({ workflow_definition, ...fields }, now) =>
        db.atomically(() => {
          if (agents.values().some((a) => a.public_id === fields.public_id)) {
            throw new Error(`duplicate agent public id ${fields.public_id}`)
          }
          const id = AgentId.make(db.nextId("agents"))
          const definition: AgentDefinition = {
            id: AgentDefinitionId.make(db.nextId("agent_definitions")),
            agent_id: id,
            organization_id: fields.organization_id,
            version: 1,
            workflow_definition,
            created_at: now
          }
          const agent: Agent = {
            ...fields,
            id,
            current_definition_id: definition.id,
            created_at: now,
            updated_at: now
          }
          agents.set(id, agent)
          definitions.set(definition.id, definition)
          return { agent, definition }
        }),
      find: (organizationId, ref) => db.atomically(() => Option.fromNullable(findAgent(organizationId, ref))),
      list: (organizationId, filter, page) =>
        db.atomically(() =>
          agents.newestPage(
            organizationId,
            page,
            (a) => filter.status === undefined || a.status === filter.status
          )
        ),
      update: (organizationId, id, patch, now) =>
        db.atomically(() =>
          agents.replaceOwn(organizationId, id, (agent) => ({
            ...agent,
            ...patch,
            workflow_configurations: { ...agent.workflow_configurations, ...patch.workflow_configurations },
            updated_at: now
          }))
        ),
      findDefinition: (organizationId, id) => db.atomically(() => definitions.findOwn(organizationId, id)),
      listDefinitions: (organizationId, agentId, page) =>
        db.atomically(() =>
          Page.slice(
            agents.own(organizationId, agentId) === undefined
              ? []
              : versionsOf(agentId).sort((a, b) => b.version - a.version),
            page
          )
        ),
      appendDefinition: (organizationId, agentId, derive, now) =>
        db.atomically(() => {
          const agent = agents.own(organizationId, agentId)
          const current = agent && definitions.get(agent.current_definition_id)
          if (agent === undefined || current === undefined) return Option.none()
          const definition: AgentDefinition = {
            id: AgentDefinitionId.make(db.nextId("agent_definitions")),
            agent_id: agentId,
            organization_id: organizationId,
            version: Math.max(...versionsOf(agentId).map((d) => d.version)) + 1,
            workflow_definition: derive(current.workflow_definition),
            created_at: now
          }
          const next: Agent = { ...agent, current_definition_id: definition.id, updated_at: now }
          definitions.set(definition.id, definition)
          agents.set(agentId, next)
          return Option.some({ agent: next, definition })
        })
    }
  })
)
