import type { DoNotCallEntry } from "@voice-agent-platform/core"
import type { DoNotCallEntryResponse } from "@voice-agent-platform/contract/do-not-call/DoNotCallApi.js"

/** A listed number in the API's shape. */
export const doNotCallEntryResponse = (
  entry: DoNotCallEntry.DoNotCallEntry
): typeof DoNotCallEntryResponse.Type => ({
  phone_number: entry.phone_number,
  reason: entry.reason,
  created_at: entry.created_at
})
