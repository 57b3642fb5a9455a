import { HttpServerResponse } from "@effect/platform"
import {
  type AgentErrors,
  CoalescedReads,
  EncodedPage,
  type Organization,
  type Runs
} from "@voice-agent-platform/core"
import type { ListRunsQuery } from "@voice-agent-platform/contract/conversations/ConversationsApi.js"
import { Effect, Metric } from "effect"

const encoder = new TextEncoder()

/**
 * The key of one page of one agent's runs list: the organization first (tenants never share), the agent
 * as the path names it, and every query parameter by name (page, limit and each filter: a parameter the
 * query gains later is in the key without a change here). Instants by their ISO text.
 */
export const pageKey = (
  organizationId: Organization.OrganizationId,
  agent: string,
  query: typeof ListRunsQuery.Type
): string =>
  JSON.stringify([
    organizationId,
    agent,
    Object.keys(query)
      .sort()
      .map((name) => [name, query[name as keyof typeof query]])
  ])

/**
 * Runs-list requests of this process waiting for a shared read of their page (`vap_runs_list_waiting`:
 * in a batch under way or about to begin, or the next one; not those reading alone past a full batch).
 */
export const waitingRequests = Metric.gauge("vap_runs_list_waiting", {
  description: "Runs-list requests waiting for a read of their page shared with identical requests."
})

/**
 * Pages of the runs list read once for every identical request in flight (`CoalescedReads`): a request
 * shares the page's next read with every request for the same page that arrived before that read began,
 * and the answer's JSON bytes, built once. Every answer comes from a read that began after its request
 * arrived, so a run written before a request is in its answer. An unknown agent's 404 (and a storage
 * defect's 500) is shared the same way: it is what each request would have met alone.
 */
export const make = (runs: Runs.Runs["Type"]) => {
  const reads = CoalescedReads.make<Uint8Array, AgentErrors.AgentNotFound>({ waitingGauge: waitingRequests })
  return {
    /** The page's 200 answer (the same bytes for every request of its batch). */
    page: (
      organizationId: Organization.OrganizationId,
      agent: string,
      query: typeof ListRunsQuery.Type
    ): Effect.Effect<HttpServerResponse.HttpServerResponse, AgentErrors.AgentNotFound> => {
      const { limit, page, ...filter } = query
      return Effect.map(
        reads.read(
          pageKey(organizationId, agent, query),
          // the runs come written as the API answers them (`RunSummaryJson`): nothing to encode
          Effect.map(runs.listEncoded(organizationId, agent, filter, { page, limit }), (found) =>
            encoder.encode(EncodedPage.json(found))
          )
        ),
        (bytes) => HttpServerResponse.uint8Array(bytes, { contentType: "application/json" })
      )
    }
  }
}
