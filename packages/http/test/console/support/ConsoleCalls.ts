import { CallingClock } from "@voice-agent-platform/core/testing"
import { expect } from "@effect/vitest"
import { send } from "../../support/ServerProcesses.js"

/** A number the simulated runtime may call on a server started at `CallingClock.env()` (`open` does). */
export const callableNumber = CallingClock.inside

/**
 * Places an outbound call of the agent through the API (the bundled server's simulated runtime rings,
 * talks for `SIM_CALL_SECONDS`, saves the transcript and the recording, and ends it) and answers the run
 * once it has ended.
 */
export const placeCall = async (
  port: number,
  apiKey: string,
  agentId: string,
  phoneNumber: string,
  initialContext: Readonly<Record<string, unknown>> = { first_name: "Ola" }
) => {
  const placed = await send(
    port,
    "POST",
    `/api/v1/agents/${agentId}/calls`,
    { apiKey },
    {
      phone_number: phoneNumber,
      initial_context: initialContext
    }
  )
  expect(placed.status, JSON.stringify(placed.json)).toBe(200)
  const path = `/api/v1/agents/${agentId}/conversations/${placed.json.workflow_run_id}`
  for (let i = 0; i < 300; i++) {
    const run = (await send(port, "GET", path, { apiKey })).json
    if (!["initialized", "queued", "ringing", "in_progress"].includes(run.status)) return run
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`the call ${path} did not end`)
}
