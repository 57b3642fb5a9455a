import { describe, expect, it } from "@effect/vitest"
import {
  chosenEvents,
  eventsOf,
  outcomeOf,
  type WebhookDelivery,
  webhookEvents
} from "../../src/screens/webhooks/WebhookEvents.js"

const all = webhookEvents.map((event) => event.value)

const delivery = (patch: Partial<WebhookDelivery>): WebhookDelivery => ({
  id: "msg_1",
  webhook_id: "whk_1",
  event_type: "call.deleted",
  workflow_run_id: 7,
  payload: {},
  attempts: 1,
  status: "delivered",
  next_attempt_at: null,
  last_status_code: 204,
  last_error: null,
  created_at: "2026-11-27T12:00:00.000Z",
  delivered_at: "2026-11-27T12:00:01.000Z",
  ...patch
})

describe("webhook events as the console shows and sends them", () => {
  it("sends no events list when every event is chosen (the API's default), the chosen ones in order otherwise", () => {
    expect(chosenEvents(all)).toBeUndefined()
    expect(chosenEvents(["call.deleted", "call.started"])).toEqual(["call.started", "call.deleted"])
    expect(chosenEvents([])).toBe("Choose at least one event.")
  })

  it("names an endpoint's events", () => {
    expect(eventsOf(all)).toBe("every event")
    expect(eventsOf(["call.ended", "call.analyzed"])).toBe("call.ended, call.analyzed")
  })

  it("says a delivery's outcome: delivered, or why not", () => {
    expect(outcomeOf(delivery({}))).toBe("delivered")
    expect(outcomeOf(delivery({ status: "pending", last_error: "http_status", last_status_code: 503 }))).toBe(
      "pending: answered 503"
    )
    expect(outcomeOf(delivery({ status: "failed", last_error: "destination_not_allowed" }))).toBe(
      "failed: destination not allowed"
    )
    expect(outcomeOf(delivery({ status: "pending", last_error: null, attempts: 0 }))).toBe("pending")
  })
})
