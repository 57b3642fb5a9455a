import { Effect } from "effect"
import * as OperationSpans from "./OperationSpans.js"
import type { AgentRef } from "../agents/AgentIds.js"

/**
 * The ids an operation is about, put on its span. Each is a pipeable of `OperationSpans.fn`, given the operation's
 * effect and arguments, and runs inside the operation's span:
 * `list: OperationSpans.fn("Runs.list")((organizationId, agent, filter, page) => …, SpanAttributes.organizationAgent)`.
 * The names are the ones the logs use: `organization_id`, `run_id`, `agent_id`, `campaign_id`.
 */

/**
 * Runs `effect` after setting `attributes` on the span it runs in, while tracing is on; with tracing off
 * (the bundled server's default) it sets nothing and reads nothing (`OperationSpans.fn` then makes no
 * span, and the span around would be another's). Not `Effect.annotateCurrentSpan`: with tracing off
 * that finds no span to annotate and makes an error to say so (a stack trace, some 8 µs, every call;
 * bench/operation-spans.ts).
 */
export const annotated = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  attributes: Readonly<Record<string, unknown>>
): Effect.Effect<A, E, R> =>
  Effect.flatMap(OperationSpans.currentSpan, (span) => {
    if (span !== undefined) for (const key in attributes) span.attribute(key, attributes[key])
    return effect
  })

/** The first argument is an organization's id. */
export const organization = <A, E, R>(effect: Effect.Effect<A, E, R>, organizationId: number) =>
  annotated(effect, { organization_id: organizationId })

/** An organization's id, then a run's. */
export const organizationRun = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  organizationId: number,
  runId: number
) => annotated(effect, { organization_id: organizationId, run_id: runId })

/** An organization's id, then an agent as the caller named it (its public id or its number). */
export const organizationAgent = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  organizationId: number,
  agent: AgentRef | string | number
) => annotated(effect, { organization_id: organizationId, agent_id: agentId(agent) })

/** An organization's id, an agent as the caller named it, then a run's id. */
export const organizationAgentRun = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  organizationId: number,
  agent: AgentRef | string | number,
  runId: number
) => annotated(effect, { organization_id: organizationId, agent_id: agentId(agent), run_id: runId })

/** An organization's id, then a campaign's. */
export const organizationCampaign = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  organizationId: number,
  campaignId: number
) => annotated(effect, { organization_id: organizationId, campaign_id: campaignId })

/** The first argument is a run's id. */
export const run = <A, E, R>(effect: Effect.Effect<A, E, R>, runId: number) =>
  annotated(effect, { run_id: runId })

/** The first argument is a run (its organization's id and its own). */
export const ofRun = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  run: { readonly organization_id: number; readonly workflow_run_id: number }
) => annotated(effect, { organization_id: run.organization_id, run_id: run.workflow_run_id })

/** An agent's id as its caller named it: its public id or its number. */
export const agentId = (agent: AgentRef | string | number): string | number =>
  typeof agent !== "object" ? agent : agent._tag === "PublicId" ? agent.publicId : agent.id
