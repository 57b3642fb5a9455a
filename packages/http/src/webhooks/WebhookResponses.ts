import type { WebhookDelivery, WebhookEndpoint } from "@voice-agent-platform/core"
import { WebhookRetry } from "@voice-agent-platform/core"
import type {
  CreatedWebhookEndpointResponse,
  WebhookDeliveryResponse,
  WebhookEndpointResponse
} from "@voice-agent-platform/contract/webhooks/WebhooksApi.js"

/** An endpoint in the API's shape, without its secret. */
export const endpointResponse = (
  endpoint: WebhookEndpoint.WebhookEndpoint
): typeof WebhookEndpointResponse.Type => ({
  id: endpoint.id,
  url: endpoint.url,
  description: endpoint.description,
  events: endpoint.events,
  enabled: endpoint.enabled,
  created_at: endpoint.created_at
})

/** A new endpoint with its secret, shown this once. */
export const createdEndpointResponse = (
  endpoint: WebhookEndpoint.WebhookEndpoint
): typeof CreatedWebhookEndpointResponse.Type => ({ ...endpointResponse(endpoint), secret: endpoint.secret })

/** A delivery log entry in the API's shape. */
export const deliveryResponse = (
  delivery: WebhookDelivery.WebhookDelivery
): typeof WebhookDeliveryResponse.Type => ({
  id: delivery.id,
  webhook_id: delivery.endpoint_id,
  event_type: delivery.event_type,
  workflow_run_id: delivery.run_id,
  payload: delivery.payload,
  attempts: delivery.attempts,
  status: delivery.status,
  next_attempt_at: delivery.next_attempt_at,
  last_status_code: delivery.last_status_code,
  last_error: WebhookRetry.shownError(delivery.last_error, delivery.last_status_code),
  created_at: delivery.created_at,
  delivered_at: delivery.delivered_at
})
