/** The Idempotency-Key tests' organization, requests and clock times. */
import type { HttpClient } from "@effect/platform"
import { HttpClientRequest } from "@effect/platform"
import { expect } from "@effect/vitest"
import { AgentIds, MemoryTelephony, RunStore } from "@voice-agent-platform/core"
import type { Organization } from "@voice-agent-platform/core"
import { Effect, TestClock } from "effect"
import { json, organization, rawClient, send } from "./TestServer.js"

// 12:00 in Warsaw (CET, UTC+1): inside calling hours.
export const warsawNoon = "2026-02-10T11:00:00.000Z"

export const setNow = (iso: string) => TestClock.setTime(new Date(iso).getTime())

export const script = {
  agent: { greeting: "Hello {{initial_context.first_name}}!", agent_goal: "Confirm the visit" }
}

export type Body = Record<string, any>

/** An organization with an agent, and a client holding its key. */
export const setup = (options: { readonly outbound_channels?: number } = {}) =>
  Effect.gen(function* () {
    const owner = yield* organization(options)
    const client = yield* rawClient(owner.apiKey)
    const created = yield* send(client, json("POST", "/api/v1/agents/from-script", script))
    expect(created.status).toBe(200)
    return { ...owner, client, agent: created.body as { id: number; public_id: string } }
  })

/** A POST with a JSON body and, when given, an `Idempotency-Key`. */
export const post = (client: HttpClient.HttpClient, path: string, body: unknown, key?: string) =>
  send(
    client,
    key === undefined
      ? json("POST", `/api/v1${path}`, body)
      : json("POST", `/api/v1${path}`, body).pipe(HttpClientRequest.setHeader("Idempotency-Key", key))
  )

/** The runs of the agent, and the calls handed to telephony (of every organization of the server). */
export const placed = (organizationId: Organization.OrganizationId, agentId: number) =>
  Effect.gen(function* () {
    const runs = yield* (yield* RunStore.RunStore).list(
      organizationId,
      AgentIds.AgentId.make(agentId),
      {},
      { page: 1, limit: 50 }
    )
    const handed = yield* (yield* MemoryTelephony.RecordedCalls).calls
    return {
      runs: runs.items.map((r) => r.workflow_run_id),
      handed: handed.filter((c) => c.run.workflow_id === agentId).map((c) => c.run.workflow_run_id)
    }
  })

export const replayed = (response: { headers: Readonly<Record<string, string>> }) =>
  response.headers["idempotency-replayed"]
