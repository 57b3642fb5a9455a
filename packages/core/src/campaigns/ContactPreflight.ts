import * as CallGates from "../calls/CallGates.js"
import type { ImportPlan, RejectedRow } from "./ContactImport.js"

/**
 * What importing a list of contacts would do, told before importing it (`POST …/contacts/preflight`):
 * `rows` read, of which `valid` have a valid number (and a context within bounds) and `invalid` not (each
 * with its row and reason); `duplicates` repeat a number given earlier in the list or one the campaign
 * already has; `would_add` are the contacts the import would add (`valid` = `would_add` + `duplicates`);
 * of those, `do_not_call` are on the organization's Do not call list (the dialer would skip them) and
 * `outside_calling_hours_now` could not be called at this moment by their local time (the dialer would
 * wait for their window).
 */
export interface ContactPreflight {
  readonly rows: number
  readonly valid: number
  readonly invalid: ReadonlyArray<RejectedRow>
  readonly duplicates: number
  readonly do_not_call: number
  readonly outside_calling_hours_now: number
  readonly would_add: number
}

/**
 * The preflight of an import plan of `rows` rows, given which of its numbers the campaign already has and
 * which the Do not call list holds, at `now`. The numbers' gates are `CallGates.beforeChannel`'s, the
 * dialer's own, in its order (Do not call first).
 */
export const summarize = (
  rows: number,
  plan: ImportPlan,
  inCampaign: ReadonlySet<string>,
  doNotCall: ReadonlySet<string>,
  now: Date
): ContactPreflight => {
  const added = plan.accepted.filter((row) => !inCampaign.has(row.phone_number))
  let listed = 0
  let outside = 0
  for (const { phone_number } of added) {
    const gate = CallGates.beforeChannel(phone_number, doNotCall.has(phone_number), now)
    if (gate._tag === "DoNotCall") listed++
    else if (gate._tag === "OutsideCallingHours") outside++
  }
  return {
    rows,
    valid: rows - plan.rejected.length,
    invalid: plan.rejected,
    duplicates: plan.duplicates + (plan.accepted.length - added.length),
    do_not_call: listed,
    outside_calling_hours_now: outside,
    would_add: added.length
  }
}
