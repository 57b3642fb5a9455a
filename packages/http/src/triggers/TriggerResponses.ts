import type { Trigger } from "@voice-agent-platform/core"
import type { TriggerResponse } from "@voice-agent-platform/contract/triggers/TriggersApi.js"

/** A trigger in the API's shape. */
export const triggerResponse = (trigger: Trigger.Trigger): typeof TriggerResponse.Type => ({
  trigger_id: trigger.trigger_id,
  workflow_id: trigger.agent_id,
  name: trigger.name,
  initial_context: trigger.initial_context,
  status: trigger.status,
  created_at: trigger.created_at
})
