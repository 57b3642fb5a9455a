import { api } from "../../session/Session.js"

/** How many of the organization's agents are read to name them (the list's largest page). */
const agentsRead = 100

/**
 * The names of the organization's agents (archived ones too), by public id and by workflow id, read from
 * the first page of the list: campaigns and triggers refer to agents by id only.
 */
export const agentNames = async (signal: AbortSignal) => {
  const page = await api.get("/api/v1/agents", { query: { limit: agentsRead }, signal })
  return {
    agents: page.items,
    byPublicId: new Map(page.items.map((agent) => [agent.public_id, agent.name])),
    byWorkflowId: new Map(page.items.map((agent) => [agent.workflow_id, agent]))
  }
}

export type AgentNames = Awaited<ReturnType<typeof agentNames>>
