import type { NewRun } from "./RunStore.js"

/** What a caller says about a new run: whose it is, how it talks, whom it calls and why. */
export type NewRunStart = Pick<
  NewRun,
  | "workflow_id"
  | "agent_definition_id"
  | "organization_id"
  | "mode"
  | "status"
  | "phone_number"
  | "initial_context"
> &
  Partial<Pick<NewRun, "name" | "campaign_id" | "trigger_id" | "channel_reservation_id">>

/**
 * A new run as every place that makes one writes it: nothing gathered, said, charged or saved yet, not
 * ended; no name, campaign, trigger or channel unless the caller gives one. The store adds its id, its
 * creation time and `newRunDefaults`.
 */
export const newRun = (start: NewRunStart): NewRun => ({
  workflow_id: start.workflow_id,
  agent_definition_id: start.agent_definition_id,
  organization_id: start.organization_id,
  mode: start.mode,
  status: start.status,
  name: start.name ?? null,
  phone_number: start.phone_number,
  initial_context: start.initial_context,
  gathered_context: {},
  duration_seconds: null,
  cost: null,
  currency: "PLN",
  disposition: null,
  campaign_id: start.campaign_id ?? null,
  trigger_id: start.trigger_id ?? null,
  logs: [],
  sms: [],
  integration_deliveries: [],
  files: { recording: null, transcript: null },
  channel_reservation_id: start.channel_reservation_id ?? null,
  ended_at: null
})
