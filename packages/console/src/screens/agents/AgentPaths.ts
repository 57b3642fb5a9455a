import { pathOf } from "../../routing/RoutePattern.js"

/** An agent's page. */
export const agentPath = (agentId: string): string => pathOf("agents/:agentId", { agentId })

/** An agent's improvement suggestions. */
export const improvementsPath = (agentId: string): string =>
  pathOf("agents/:agentId/improvements", { agentId })

/** The chat with an agent. */
export const chatPath = (agentId: string): string => pathOf("agents/:agentId/chat", { agentId })
