import type { Agent } from "../agents/Agent.js"
import * as CallingHours from "../calling-hours/CallingHours.js"
import * as TimeZoneCandidates from "../calling-hours/TimeZoneCandidates.js"
import type { OrganizationId } from "../organizations/Organization.js"
import type { PhoneNumber } from "../phone-numbers/PhoneNumber.js"
import type { ChannelReservation } from "./OutboundChannels.js"
import { holdSeconds } from "./OutboundChannels.js"

/**
 * The gates every outbound call passes, in the contract's order: a permanent refusal before a retryable
 * one, and the channel last, since it is the only gate that holds something. `POST …/calls`
 * (`CallPlacement`) answers each closed gate with its error (403, 409, 429); the campaign dialer
 * (`CampaignDialer`) turns it into the contact's next step (skipped, wait for the window, wait the
 * Retry-After). Both decide with this module, so the order lives here only.
 *
 * 1. Do not call: the organization's list holds the number (`DoNotCallListed`, a contact `skipped`).
 * 2. Calling hours: the number's local time is outside the window (`OutsideCallingHours`, a contact
 *    waits until `retryAt`).
 * 3. Outbound channels: one is reserved for the call with `channelHold` (`ChannelsBusy`, a contact waits
 *    the Retry-After); exact across processes (`ChannelStore.reserve`).
 */
export type NumberGate =
  | { readonly _tag: "DoNotCall" }
  | {
      readonly _tag: "OutsideCallingHours"
      readonly retryAt: Date
      readonly retryAfterSeconds: number
      readonly zones: ReadonlyArray<string>
    }
  | { readonly _tag: "Open" }

/**
 * Gates 1 and 2 for an E.164 number at `now`, given whether the organization's Do not call list holds
 * it: what stands before its channel. Pure, so a caller may look many numbers up at once.
 */
export const beforeChannel = (phoneNumber: string, doNotCall: boolean, now: Date): NumberGate => {
  if (doNotCall) return { _tag: "DoNotCall" }
  const zones = TimeZoneCandidates.forNumber(phoneNumber)
  const hours = CallingHours.check(zones, now)
  return hours._tag === "OutsideCallingHours"
    ? {
        _tag: "OutsideCallingHours",
        retryAt: hours.retryAt,
        retryAfterSeconds: hours.retryAfterSeconds,
        zones
      }
    : { _tag: "Open" }
}

/**
 * Gate 3's reservation for a call of `agent`: held until the call ends, or taken back after the time
 * before the answer, the agent's longest call and a grace (`holdSeconds`) if its end is never reported.
 */
export const channelHold = (
  organizationId: OrganizationId,
  reservationId: string,
  agent: Pick<Agent, "workflow_configurations">,
  now: Date
): ChannelReservation => ({
  id: reservationId,
  organization_id: organizationId,
  reserved_at: now,
  expires_at: new Date(
    now.getTime() + holdSeconds(agent.workflow_configurations.max_call_duration_seconds) * 1000
  ),
  expected_release_at: null
})

/** Before the gates: a caller id must be one of the organization's numbers, and active. */
export const usableCallerId = (number: PhoneNumber, organizationId: OrganizationId): boolean =>
  number.organization_id === organizationId && number.status === "active"
