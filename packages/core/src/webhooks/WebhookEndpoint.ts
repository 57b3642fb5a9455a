import { Schema } from "effect"
import { OrganizationId } from "../organizations/Organization.js"

/** An endpoint's id: `whk_` and 20 characters of `[A-Za-z0-9]`, random. */
export const WebhookEndpointId = Schema.String.pipe(
  Schema.pattern(/^whk_[A-Za-z0-9]{20}$/),
  Schema.brand("WebhookEndpointId")
)
export type WebhookEndpointId = typeof WebhookEndpointId.Type

/** The events an endpoint can subscribe to. */
export const WebhookEventType = Schema.Literal(
  "call.started",
  "call.ended",
  "call.deleted",
  "call.analyzed",
  "campaign.started",
  "campaign.completed",
  "campaign.contact.skipped"
)
export type WebhookEventType = typeof WebhookEventType.Type

/** The events about one run. */
export type RunEventType = Extract<WebhookEventType, `call.${string}`>

/** The events about a campaign. */
export type CampaignEventType = Extract<WebhookEventType, `campaign.${string}`>

/** Every event type: what an endpoint created without `events` receives. */
export const allEventTypes: ReadonlyArray<WebhookEventType> = WebhookEventType.literals

/** A signing secret: `whsec_` and the base64 of the key bytes (Standard Webhooks). */
export const WebhookSecret = Schema.String.pipe(Schema.pattern(/^whsec_[A-Za-z0-9+/]+={0,2}$/))

/** An absolute `http:` or `https:` URL without credentials. */
export const isWebhookUrl = (value: string): boolean => {
  if (!URL.canParse(value)) return false
  const url = new URL(value)
  return (url.protocol === "http:" || url.protocol === "https:") && url.username === "" && url.password === ""
}

/** A receiver's URL as the API accepts it. */
export const WebhookUrl = Schema.String.pipe(
  Schema.maxLength(2048),
  Schema.filter(isWebhookUrl, { message: () => "must be an absolute http or https URL" })
)

/** An organization's webhook endpoint: where events are POSTed, which ones, and the key that signs them. */
export const WebhookEndpoint = Schema.Struct({
  id: WebhookEndpointId,
  organization_id: OrganizationId,
  url: Schema.String,
  description: Schema.NullOr(Schema.String),
  events: Schema.Array(WebhookEventType),
  secret: WebhookSecret,
  enabled: Schema.Boolean,
  created_at: Schema.DateFromSelf
})
export type WebhookEndpoint = typeof WebhookEndpoint.Type

const isEndpointId = Schema.is(WebhookEndpointId)

/** The endpoint id made from 20 base62 characters. */
export const endpointIdFrom = (body: string): WebhookEndpointId => WebhookEndpointId.make(`whk_${body}`)

/** Reads a `{webhook_id}` path segment; anything else names no endpoint (404, like an unknown one). */
export const parseEndpointId = (segment: string): WebhookEndpointId | undefined =>
  isEndpointId(segment) ? segment : undefined
