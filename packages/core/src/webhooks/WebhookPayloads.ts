import * as Money from "../money/Money.js"
import type { Run } from "../runs/Run.js"
import type { WebhookPayload } from "./WebhookDelivery.js"
import type { CampaignEventType, RunEventType } from "./WebhookEndpoint.js"

/** What every event says about its run: which run of which agent, and where it stands. */
const summary = (run: Run) => ({
  workflow_run_id: run.workflow_run_id,
  workflow_id: run.workflow_id,
  status: run.status
})

/**
 * The body of an event about a run, as of `now`. `call.started` and `call.ended` describe the call
 * (`call.ended` with what it gathered, its duration and cost); `call.analyzed` what the analysis after it
 * found (gathered data, disposition, summary; or why it failed); `call.deleted` says only which run went,
 * never its contexts: the data was erased on request and must not travel again.
 */
export const forRun = (type: RunEventType, run: Run, now: Date): WebhookPayload => {
  const timestamp = now.toISOString()
  switch (type) {
    case "call.deleted":
      return { type, timestamp, data: summary(run) }
    case "call.started":
      return {
        type,
        timestamp,
        data: {
          ...summary(run),
          mode: run.mode,
          phone_number: run.phone_number,
          campaign_id: run.campaign_id,
          trigger_id: run.trigger_id,
          created_at: run.created_at.toISOString()
        }
      }
    case "call.ended":
      return {
        type,
        timestamp,
        data: {
          ...summary(run),
          mode: run.mode,
          phone_number: run.phone_number,
          campaign_id: run.campaign_id,
          trigger_id: run.trigger_id,
          duration_seconds: run.duration_seconds,
          cost: run.cost === null ? null : { amount: Money.toDecimal(run.cost), currency: run.currency },
          disposition: run.disposition,
          gathered_context: run.gathered_context,
          created_at: run.created_at.toISOString(),
          ended_at: run.ended_at === null ? null : run.ended_at.toISOString()
        }
      }
    case "call.analyzed":
      return {
        type,
        timestamp,
        data: {
          ...summary(run),
          mode: run.mode,
          campaign_id: run.campaign_id,
          analysis_status: run.analysis_status,
          analysis_error: run.analysis_error,
          disposition: run.disposition,
          summary: run.summary,
          gathered_context: run.gathered_context,
          ended_at: run.ended_at === null ? null : run.ended_at.toISOString()
        }
      }
  }
}

/** The body of an event about a campaign: its id, status and counts (and the contact, for a skip). */
export const forCampaign = (
  type: CampaignEventType,
  data: Readonly<Record<string, unknown>>,
  now: Date
): WebhookPayload => ({ type, timestamp: now.toISOString(), data: { ...data } })
