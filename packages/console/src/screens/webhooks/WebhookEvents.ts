import type { Schema } from "../../api/Client.js"

export type WebhookEndpoint = Schema<"WebhookEndpoint">
export type WebhookDelivery = Schema<"WebhookDelivery">
export type WebhookEvent = WebhookEndpoint["events"][number]

/** Every event an endpoint may receive, with what it means. */
export const webhookEvents: ReadonlyArray<{ readonly value: WebhookEvent; readonly label: string }> = [
  { value: "call.started", label: "call.started: a call or chat began" },
  { value: "call.ended", label: "call.ended: it ended" },
  { value: "call.analyzed", label: "call.analyzed: its analysis is done (or failed)" },
  { value: "call.deleted", label: "call.deleted: it was erased" },
  { value: "campaign.started", label: "campaign.started" },
  { value: "campaign.completed", label: "campaign.completed" },
  { value: "campaign.contact.skipped", label: "campaign.contact.skipped: a contact was not called" }
]

/** An endpoint's page in the console. */
export const webhookPath = (webhookId: string): string => `webhooks/${encodeURIComponent(webhookId)}`

/** The events an endpoint receives, in words: "every event" when it has them all. */
export const eventsOf = (events: ReadonlyArray<WebhookEvent>): string =>
  webhookEvents.every((event) => events.includes(event.value)) ? "every event" : events.join(", ")

/** The events chosen in the form as the API's `events`: left out when every one is chosen (the default). */
export const chosenEvents = (
  chosen: ReadonlyArray<WebhookEvent>
): Array<WebhookEvent> | undefined | string => {
  if (chosen.length === 0) return "Choose at least one event."
  return webhookEvents.every((event) => chosen.includes(event.value))
    ? undefined
    : webhookEvents.filter((event) => chosen.includes(event.value)).map((event) => event.value)
}

/** A delivery's outcome in words: delivered, or why its last attempt was not (and when the next is). */
export const outcomeOf = (delivery: WebhookDelivery): string => {
  if (delivery.status === "delivered") return "delivered"
  const why =
    delivery.last_error === null
      ? ""
      : delivery.last_error === "http_status"
        ? `answered ${delivery.last_status_code ?? "an error"}`
        : delivery.last_error.replace(/_/g, " ")
  const status = delivery.status === "failed" ? "failed" : "pending"
  return why === "" ? status : `${status}: ${why}`
}
