import type { CallEvents, RuntimeCalls } from "@voice-agent-platform/core"
import type {
  RuntimeCallResponse,
  RuntimeEventsResponse
} from "@voice-agent-platform/contract/runtime/RuntimeApi.js"

/** The call as the runtime reads it. */
export const callResponse = (call: RuntimeCalls.RuntimeCall): typeof RuntimeCallResponse.Type => ({
  workflow_run_id: call.run.workflow_run_id,
  workflow_id: call.run.workflow_id,
  status: call.run.status,
  phone_number: call.run.phone_number,
  initial_context: call.run.initial_context,
  gathered_context: call.run.gathered_context,
  first_message: call.first_message,
  system_prompt: call.system_prompt,
  language: call.language,
  gathered_fields: call.gathered_fields,
  max_call_duration_seconds: call.max_call_duration_seconds,
  created_at: call.run.created_at
})

/** Each event's outcome in order, and the run's status after the last one. */
export const eventsResponse = (
  runId: number,
  events: ReadonlyArray<CallEvents.CallEvent>,
  outcomes: ReadonlyArray<CallEvents.CallEventOutcome>
): typeof RuntimeEventsResponse.Type => ({
  workflow_run_id: runId,
  status: outcomes[outcomes.length - 1]!.run.status,
  results: outcomes.map((outcome, i) => ({
    type: events[i]!.type,
    outcome: outcome._tag === "Applied" ? "applied" : "ignored"
  }))
})
