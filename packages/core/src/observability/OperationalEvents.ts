import { Effect, Metric } from "effect"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Run } from "../runs/Run.js"

/**
 * What an operator watches, as log lines with their ids and as metrics (Effect's `Metric` registry,
 * which the bundled server exposes at `GET /metrics`). Labels are bounded: a gate, a status, a
 * category, never an organization, a number or any other id.
 */

/** Calls accepted and handed to the voice runtime. */
export const callsPlaced = Metric.counter("vap_calls_placed_total", {
  description: "Calls accepted and handed to the voice runtime",
  incremental: true
})

/** The gates that refuse a call, in the contract's order. */
export type Gate = "do_not_call" | "calling_hours" | "channels"

/** Calls refused, by the gate that refused them (`gate`: do_not_call, calling_hours, channels). */
export const callsRefused = Metric.counter("vap_calls_refused_total", {
  description: "Calls refused, by the gate that refused them",
  incremental: true
})

/** Calls that ended, by final status. */
export const callsEnded = Metric.counter("vap_calls_ended_total", {
  description: "Calls that ended, by final status",
  incremental: true
})

/** Webhook delivery attempts that were not answered 2xx (`outcome`: retry or failed). */
export const webhookFailures = Metric.counter("vap_webhook_delivery_failures_total", {
  description: "Webhook delivery attempts not answered 2xx, by outcome (retry, failed)",
  incremental: true
})

/** Campaign contacts the dialer claimed and moved on (dialed, or settled without a call). */
export const contactsDispatched = Metric.counter("vap_dialer_contacts_dispatched_total", {
  description: "Campaign contacts claimed by the dialer and moved on",
  incremental: true
})

/** A call accepted: `info`, with its run, agent, organization and campaign. */
export const callPlaced = (run: Run): Effect.Effect<void> =>
  Effect.zipRight(
    Metric.increment(callsPlaced),
    Effect.logInfo("call placed").pipe(
      Effect.annotateLogs({
        run_id: run.workflow_run_id,
        agent_id: run.workflow_id,
        organization_id: run.organization_id,
        campaign_id: run.campaign_id
      })
    )
  )

/** A call refused by a gate: `info` (a refusal is the rule working, not a fault). */
export const callRefused = (gate: Gate, organizationId: OrganizationId): Effect.Effect<void> =>
  Effect.zipRight(
    Metric.increment(Metric.tagged(callsRefused, "gate", gate)),
    Effect.logInfo("call refused").pipe(Effect.annotateLogs({ gate, organization_id: organizationId }))
  )

/** A call ended: `info`, with its run, final status and duration. */
export const callEnded = (run: Run): Effect.Effect<void> =>
  Effect.zipRight(
    Metric.increment(Metric.tagged(callsEnded, "status", run.status)),
    Effect.logInfo("call ended").pipe(
      Effect.annotateLogs({
        run_id: run.workflow_run_id,
        organization_id: run.organization_id,
        status: run.status,
        duration_seconds: run.duration_seconds
      })
    )
  )

/** A webhook delivery attempt that failed: `warn`, with the delivery, endpoint and what went wrong. */
export const webhookDeliveryFailed = (failure: {
  readonly delivery_id: string
  readonly endpoint_id: string
  readonly organization_id: OrganizationId
  readonly attempts: number
  readonly error: string | null
  readonly status_code: number | null
  readonly outcome: "retry" | "failed"
}): Effect.Effect<void> =>
  Effect.zipRight(
    Metric.increment(Metric.tagged(webhookFailures, "outcome", failure.outcome)),
    Effect.logWarning("webhook delivery failed").pipe(Effect.annotateLogs(failure))
  )

/** One batch of contacts claimed by the dialer for a campaign: one `info` line per batch. */
export const dialerClaimed = (
  organizationId: OrganizationId,
  campaignId: number,
  dialed: number,
  moved: number,
  refused: Readonly<Record<Gate, number>> = noRefusals
): Effect.Effect<void> =>
  moved === 0
    ? Effect.void
    : Effect.all(
        [
          Metric.incrementBy(contactsDispatched, moved),
          // the claim's refusals counted by gate like the API's (`callRefused`), logged on the claim's line
          ...gates
            .filter((gate) => refused[gate] > 0)
            .map((gate) => Metric.incrementBy(Metric.tagged(callsRefused, "gate", gate), refused[gate])),
          Effect.logInfo("dialer claimed contacts").pipe(
            Effect.annotateLogs({
              organization_id: organizationId,
              campaign_id: campaignId,
              dialed,
              moved,
              refused_do_not_call: refused.do_not_call,
              refused_calling_hours: refused.calling_hours,
              refused_channels: refused.channels
            })
          )
        ],
        { discard: true }
      )

const gates: ReadonlyArray<Gate> = ["do_not_call", "calling_hours", "channels"]

/** A claim no gate refused anything of. */
export const noRefusals: Readonly<Record<Gate, number>> = { do_not_call: 0, calling_hours: 0, channels: 0 }

/** Outbound channels held by calls now, all organizations (read from storage when metrics are scraped). */
export const channelsInUse = Metric.gauge("vap_channels_in_use", {
  description: "Outbound channels held by calls, all organizations"
})

/** Webhook deliveries waiting to be sent or retried (read from storage when metrics are scraped). */
export const webhookBacklog = Metric.gauge("vap_webhook_backlog", {
  description: "Webhook deliveries pending (waiting to be sent or retried)"
})
