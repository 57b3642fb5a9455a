import type { Run } from "@voice-agent-platform/core"
import type { CallResponse } from "@voice-agent-platform/contract/calls/CallsApi.js"

/** An accepted call in the API's shape. */
export const callResponse = (run: Run.Run): typeof CallResponse.Type => ({
  workflow_run_id: run.workflow_run_id,
  workflow_id: run.workflow_id,
  // a call is accepted as a queued run; anything else would be a bug in CallPlacement
  status: "queued",
  phone_number: run.phone_number ?? "",
  created_at: run.created_at
})
