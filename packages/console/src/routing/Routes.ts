import type { FunctionComponent } from "preact"
import { matchRoute, type RoutePattern } from "./RoutePattern.js"

/** What a screen is given: its address's parameters (`agentId`) and query (filters, page). */
export interface ScreenProps {
  readonly params: Readonly<Record<string, string>>
  readonly query: URLSearchParams
}

/** A screen of the console: the address it answers and how its code is loaded (a chunk of its own). */
export interface Route {
  readonly pattern: RoutePattern
  readonly load: () => Promise<FunctionComponent<ScreenProps>>
}

/**
 * Every screen, by address. A screen's code is loaded when it is first shown (esbuild splits it into a
 * chunk of its own), so the first screen's JavaScript stays small however many screens there are. To add a
 * screen: its component under `screens/<feature>/`, a line here, and (for a top-level one) it shows in the
 * main navigation by itself (`navigation` below).
 */
export const routes: ReadonlyArray<Route> = [
  { pattern: "", load: () => import("../screens/overview/OverviewScreen.js").then((m) => m.OverviewScreen) },
  { pattern: "agents", load: () => import("../screens/agents/AgentsScreen.js").then((m) => m.AgentsScreen) },
  {
    pattern: "agents/new",
    load: () => import("../screens/agents/CreateAgentScreen.js").then((m) => m.CreateAgentScreen)
  },
  {
    pattern: "agents/:agentId",
    load: () => import("../screens/agents/AgentScreen.js").then((m) => m.AgentScreen)
  },
  {
    pattern: "agents/:agentId/improvements",
    load: () => import("../screens/agents/ImprovementsScreen.js").then((m) => m.ImprovementsScreen)
  },
  {
    pattern: "agents/:agentId/chat",
    load: () => import("../screens/agents/ChatScreen.js").then((m) => m.ChatScreen)
  },
  { pattern: "runs", load: () => import("../screens/runs/RunsScreen.js").then((m) => m.RunsScreen) },
  { pattern: "runs/:runId", load: () => import("../screens/runs/RunScreen.js").then((m) => m.RunScreen) },
  { pattern: "usage", load: () => import("../screens/usage/UsageScreen.js").then((m) => m.UsageScreen) },
  {
    pattern: "api-keys",
    load: () => import("../screens/api-keys/ApiKeysScreen.js").then((m) => m.ApiKeysScreen)
  },
  { pattern: "tools", load: () => import("../screens/tools/ToolsScreen.js").then((m) => m.ToolsScreen) },
  {
    pattern: "tools/new",
    load: () => import("../screens/tools/CreateToolScreen.js").then((m) => m.CreateToolScreen)
  },
  {
    pattern: "tools/:toolUuid",
    load: () => import("../screens/tools/ToolScreen.js").then((m) => m.ToolScreen)
  },
  {
    pattern: "knowledge-base",
    load: () => import("../screens/knowledge-base/KnowledgeBaseScreen.js").then((m) => m.KnowledgeBaseScreen)
  },
  {
    pattern: "knowledge-base/:documentId",
    load: () => import("../screens/knowledge-base/DocumentScreen.js").then((m) => m.DocumentScreen)
  },
  {
    pattern: "webhooks",
    load: () => import("../screens/webhooks/WebhooksScreen.js").then((m) => m.WebhooksScreen)
  },
  {
    pattern: "webhooks/:webhookId",
    load: () => import("../screens/webhooks/WebhookScreen.js").then((m) => m.WebhookScreen)
  },
  {
    pattern: "campaigns",
    load: () => import("../screens/campaigns/CampaignsScreen.js").then((m) => m.CampaignsScreen)
  },
  {
    pattern: "campaigns/new",
    load: () => import("../screens/campaigns/CreateCampaignScreen.js").then((m) => m.CreateCampaignScreen)
  },
  {
    pattern: "campaigns/:campaignId",
    load: () => import("../screens/campaigns/CampaignScreen.js").then((m) => m.CampaignScreen)
  },
  {
    pattern: "do-not-call",
    load: () => import("../screens/do-not-call/DoNotCallScreen.js").then((m) => m.DoNotCallScreen)
  },
  {
    pattern: "triggers",
    load: () => import("../screens/triggers/TriggersScreen.js").then((m) => m.TriggersScreen)
  },
  {
    pattern: "phone-numbers",
    load: () => import("../screens/phone-numbers/PhoneNumbersScreen.js").then((m) => m.PhoneNumbersScreen)
  }
]

/** The route a path shows, with its parameters; the first that matches wins (`agents/new` before `agents/:agentId`). */
export const routeOf = (path: string) => {
  for (const route of routes) {
    const params = matchRoute(route.pattern, path)
    if (params !== undefined) return { route, params }
  }
  return undefined
}

/** Whether some screen answers this path (a link to a screen not built yet is shown as text). */
export const hasScreen = (path: string): boolean => routeOf(path) !== undefined

/**
 * The main navigation, in the order of the issue. An entry shows once a screen answers its address: a
 * section whose screens are not built yet has no link (never a placeholder screen).
 */
const sections: ReadonlyArray<{ readonly label: string; readonly to: string }> = [
  { label: "Overview", to: "" },
  { label: "Agents", to: "agents" },
  { label: "Runs", to: "runs" },
  { label: "Campaigns", to: "campaigns" },
  { label: "Phone numbers", to: "phone-numbers" },
  { label: "Tools", to: "tools" },
  { label: "Knowledge base", to: "knowledge-base" },
  { label: "Webhooks", to: "webhooks" },
  { label: "API keys", to: "api-keys" },
  { label: "Usage", to: "usage" }
]

/** The main navigation's links: the sections that have a screen. */
export const navigation = sections.filter((section) => hasScreen(section.to))
