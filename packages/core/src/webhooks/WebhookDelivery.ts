import { Schema } from "effect"
import { OrganizationId } from "../organizations/Organization.js"
import { RunId } from "../runs/RunId.js"
import { WebhookEndpointId, WebhookEventType } from "./WebhookEndpoint.js"

/** A delivery's id, sent as `webhook-id`: `msg_` and 24 characters of `[A-Za-z0-9]`; retries keep it. */
export const WebhookDeliveryId = Schema.String.pipe(
  Schema.pattern(/^msg_[A-Za-z0-9]{24}$/),
  Schema.brand("WebhookDeliveryId")
)
export type WebhookDeliveryId = typeof WebhookDeliveryId.Type

/** `pending` until a receiver accepts it (`delivered`) or the attempts run out (`failed`). */
export const WebhookDeliveryStatus = Schema.Literal("pending", "delivered", "failed")
export type WebhookDeliveryStatus = typeof WebhookDeliveryStatus.Type

/** The JSON body of an event: `{type, timestamp, data}`. */
export const WebhookPayload = Schema.Struct({
  type: WebhookEventType,
  timestamp: Schema.String,
  data: Schema.Record({ key: Schema.String, value: Schema.Unknown })
})
export type WebhookPayload = typeof WebhookPayload.Type

/** One event on its way to one endpoint, with what its attempts met so far. */
export const WebhookDelivery = Schema.Struct({
  id: WebhookDeliveryId,
  organization_id: OrganizationId,
  endpoint_id: WebhookEndpointId,
  event_type: WebhookEventType,
  /** The run the event is about; null for a campaign's event. */
  run_id: Schema.NullOr(RunId),
  payload: WebhookPayload,
  attempts: Schema.NonNegativeInt,
  status: WebhookDeliveryStatus,
  /** When the next attempt is due; null once the delivery is settled. */
  next_attempt_at: Schema.NullOr(Schema.DateFromSelf),
  last_status_code: Schema.NullOr(Schema.Int),
  last_error: Schema.NullOr(Schema.String),
  created_at: Schema.DateFromSelf,
  delivered_at: Schema.NullOr(Schema.DateFromSelf)
})
export type WebhookDelivery = typeof WebhookDelivery.Type

/** The delivery id made from 24 base62 characters. */
export const deliveryIdFrom = (body: string): WebhookDeliveryId => WebhookDeliveryId.make(`msg_${body}`)
