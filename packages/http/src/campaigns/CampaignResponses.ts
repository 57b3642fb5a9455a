import type { Campaign, Campaigns, ContactPreflight } from "@voice-agent-platform/core"
import { CsvWriter, Money } from "@voice-agent-platform/core"
import { total } from "@voice-agent-platform/core/campaigns/CampaignTally.js"
import type {
  CampaignResponse,
  ContactPreflightResponse,
  ImportResponse,
  ReportItem,
  ReportSummary
} from "@voice-agent-platform/contract/campaigns/CampaignsApi.js"

/** A campaign in the API's shape; `agentPublicId` is its agent's public id. */
export const campaignResponse = (
  campaign: Campaign.Campaign,
  agentPublicId: string
): typeof CampaignResponse.Type => ({
  campaign_id: campaign.id,
  name: campaign.name,
  agent_id: agentPublicId,
  workflow_id: campaign.agent_id,
  from_phone_number_id: campaign.from_phone_number_id,
  status: campaign.status,
  max_concurrency: campaign.max_concurrency,
  retry: {
    max_attempts: campaign.max_attempts,
    retry_delay_seconds: campaign.retry_delay_seconds,
    retry_on: campaign.retry_on
  },
  counts: { total: total(campaign.totals.counts), ...campaign.totals.counts },
  created_at: campaign.created_at,
  started_at: campaign.started_at,
  completed_at: campaign.ended_at
})

export const importResponse = (result: Campaigns.ImportResult): typeof ImportResponse.Type => ({
  added: result.added,
  duplicates: result.duplicates,
  rejected: result.rejected.map(({ row, phone_number, detail }) => ({ row, phone_number, detail }))
})

/** What an import would do, as `…/contacts/preflight` answers it. */
export const preflightResponse = (
  preflight: ContactPreflight.ContactPreflight
): typeof ContactPreflightResponse.Type => ({
  ...preflight,
  invalid: preflight.invalid.map(({ row, phone_number, detail }) => ({ row, phone_number, detail }))
})

export const summary = (campaign: Campaign.Campaign): typeof ReportSummary.Type => ({
  total: total(campaign.totals.counts),
  ...campaign.totals.counts,
  attempts: campaign.totals.attempts,
  duration_seconds: campaign.totals.duration_seconds,
  cost: { amount: Money.toDecimal(campaign.totals.cost), currency: "PLN" }
})

export const reportItem = ({ contact, run }: Campaign.ReportedContact): typeof ReportItem.Type => ({
  contact_id: contact.id,
  phone_number: contact.phone_number,
  status: contact.status,
  attempts: contact.attempts,
  last_run_id: contact.last_run_id,
  last_run_status: run?.status ?? null,
  disposition: run?.disposition ?? null,
  duration_seconds: run?.duration_seconds ?? null,
  gathered_context: run === null ? null : { ...run.gathered_context },
  last_error: contact.outcome,
  next_attempt_at: contact.next_attempt_at
})

/** The CSV report's columns, the JSON items' fields in the same order. */
export const csvColumns = [
  "contact_id",
  "phone_number",
  "status",
  "attempts",
  "last_run_id",
  "last_run_status",
  "disposition",
  "duration_seconds",
  "gathered_context",
  "last_error",
  "next_attempt_at"
] as const

/** A number as text (`+48500100200`, `-1.5`): a spreadsheet reads it as a number, never a formula. */
const numeric = /^[+-]?\d+(\.\d+)?$/

/**
 * A text cell a spreadsheet will not run: one starting with `=`, `+`, `-`, `@`, a tab or a carriage
 * return (how formulas start, OWASP's CSV injection) gets a leading `'`, unless it is a plain number.
 */
export const spreadsheetSafe = (cell: string): string =>
  /^[=+\-@\t\r]/.test(cell) && !numeric.test(cell) ? `'${cell}` : cell

/**
 * One CSV record of a contact: empty for null, ISO 8601 for instants, JSON for the gathered data; text
 * that a spreadsheet would take for a formula is guarded (`spreadsheetSafe`).
 */
export const csvRecord = (row: Campaign.ReportedContact): string => {
  const item = reportItem(row)
  return CsvWriter.record(
    csvColumns.map((column) => {
      const value = item[column]
      if (value === null) return ""
      if (value instanceof Date) return value.toISOString()
      if (typeof value === "object") return JSON.stringify(value)
      return spreadsheetSafe(String(value))
    })
  )
}
