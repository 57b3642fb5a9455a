/** The usage tests' organizations, ledger lines and period. */
import type { HttpClient } from "@effect/platform"
import { HttpClientRequest } from "@effect/platform"
import type { AgentIds, Organization, RunId, UsageRecord } from "@voice-agent-platform/core"
import { Money, RunStore, UsageStore } from "@voice-agent-platform/core"
import { Fixtures } from "@voice-agent-platform/core/testing"
import { Effect } from "effect"
import { organization, rawClient, send } from "./TestServer.js"

export type Body = Record<string, any>

/** An organization with two agents, and its client. */
export const setup = Effect.gen(function* () {
  const { organization: org, apiKey } = yield* organization()
  const first = (yield* Fixtures.agent(org.id, "First")).agent.id
  const second = (yield* Fixtures.agent(org.id, "Second")).agent.id
  return { org, agents: [first, second] as const, client: yield* rawClient(apiKey) }
})

/** A ledger line of the agent: `call` (a finished call's), `analysis` (of that call) or `improvements`. */
export const line = (
  organizationId: Organization.OrganizationId,
  agentId: AgentIds.AgentId,
  kind: UsageRecord.UsageKind,
  runId: RunId.RunId | null,
  at: Date | string,
  duration_seconds: number,
  cost: number,
  tokens = 0
) =>
  Effect.flatMap(UsageStore.UsageStore, (usage) =>
    usage.record({
      organization_id: organizationId,
      kind,
      run_id: runId,
      agent_id: agentId,
      mode: "phone",
      duration_seconds,
      cost: Money.MinorUnits.make(cost),
      prompt_tokens: tokens,
      completion_tokens: Math.floor(tokens / 10),
      currency: "PLN",
      recorded_at: new Date(at)
    })
  )

/** A finished call as the ledger records it: a run and its `call` line. */
export const call = (
  organizationId: Organization.OrganizationId,
  agentId: AgentIds.AgentId,
  at: Date | string,
  duration_seconds: number,
  cost: number
) =>
  Effect.gen(function* () {
    const run = yield* (yield* RunStore.RunStore).insert(
      Fixtures.newRun(organizationId, agentId),
      new Date(at)
    )
    return yield* line(organizationId, agentId, "call", run.workflow_run_id, at, duration_seconds, cost)
  })

/** A GET through the client. */
export const get = (client: HttpClient.HttpClient, url: string) => send(client, HttpClientRequest.get(url))

/** The current calendar month in UTC, computed independently of the server. */
export const currentMonth = () => {
  const now = new Date()
  return {
    from: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
    to: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1))
  }
}

/** March 2026 as a period query. */
export const march = "from=2026-03-01T00:00:00Z&to=2026-04-01T00:00:00Z"
