import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import * as WebhookDelivery from "@voice-agent-platform/core/webhooks/WebhookDelivery.js"
import * as WebhookEndpoint from "@voice-agent-platform/core/webhooks/WebhookEndpoint.js"
import { Schema } from "effect"
import { Conflict, NotFound } from "../errors/ApiErrors.js"
import { Authentication } from "../middleware/Authentication.js"
import { JsonObject, strict } from "../shared/Json.js"
import { PageOf, PageQuery } from "../shared/Pagination.js"
import { Timestamp } from "../shared/Timestamp.js"

const endpointFields = {
  id: Schema.String.annotations({ description: "`whk_` and 20 characters of [A-Za-z0-9]" }),
  ...WebhookEndpoint.WebhookEndpoint.pick("url", "description", "events", "enabled").fields,
  created_at: Timestamp
}

/** A webhook endpoint as the API shows it; its secret is never shown again after creation. */
export const WebhookEndpointResponse = Schema.Struct(endpointFields).annotations({
  identifier: "WebhookEndpoint"
})

/** A new webhook endpoint with its signing secret: the only answer that carries it. */
export const CreatedWebhookEndpointResponse = Schema.Struct({
  ...endpointFields,
  secret: Schema.String.annotations({
    description: "`whsec_` + base64 key for Standard Webhooks signatures; shown once, store it now"
  })
}).annotations({ identifier: "CreatedWebhookEndpoint" })

/** One entry of an endpoint's delivery log. */
export const WebhookDeliveryResponse = Schema.Struct({
  id: Schema.String.annotations({ description: "The `webhook-id` header of every attempt (msg_...)" }),
  webhook_id: Schema.String,
  event_type: WebhookDelivery.WebhookDelivery.fields.event_type,
  workflow_run_id: Schema.NullOr(Schema.Int),
  payload: JsonObject,
  attempts: Schema.Int,
  status: WebhookDelivery.WebhookDelivery.fields.status,
  next_attempt_at: Schema.NullOr(Timestamp),
  last_status_code: WebhookDelivery.WebhookDelivery.fields.last_status_code,
  last_error: Schema.NullOr(
    Schema.Literal("timeout", "connection_failed", "destination_not_allowed", "http_status")
  ).annotations({
    description:
      "Why the last attempt did not deliver, as a category: no answer within the deadline, no connection, a destination the server may not reach (loopback, private, link-local… unless its operator allows it), or an answer that was not 2xx (`last_status_code`)"
  }),
  created_at: Timestamp,
  delivered_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "WebhookDelivery" })

const Events = Schema.Array(WebhookEndpoint.WebhookEventType).pipe(Schema.minItems(1)).annotations({
  description:
    "Event types to receive: call.started, call.ended, call.analyzed, call.deleted, campaign.started, campaign.completed, campaign.contact.skipped"
})
const Description = Schema.NullOr(Schema.Trim.pipe(Schema.maxLength(500)))

/** `POST /webhooks`. */
export const CreateWebhookRequest = strict(
  Schema.Struct({
    url: WebhookEndpoint.WebhookUrl.annotations({
      description: "Absolute http or https URL that receives POSTs"
    }),
    events: Schema.optionalWith(Events, { exact: true }),
    description: Schema.optionalWith(Description, { exact: true })
  }).annotations({ identifier: "CreateWebhookRequest" })
)

/** `PATCH /webhooks/{webhook_id}`: omitted fields stay as they are. */
export const UpdateWebhookRequest = strict(
  Schema.Struct({
    url: Schema.optionalWith(WebhookEndpoint.WebhookUrl, { exact: true }),
    events: Schema.optionalWith(Events, { exact: true }),
    description: Schema.optionalWith(Description, { exact: true }),
    enabled: Schema.optionalWith(Schema.Boolean, { exact: true })
  }).annotations({ identifier: "UpdateWebhookRequest" })
)

const webhookPath = Schema.Struct({
  webhook_id: Schema.String.annotations({ description: "The endpoint's id (whk_...)" })
})

/** Webhook endpoints of the organization and their delivery log. */
export class WebhooksApi extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.post("create", "/webhooks")
      .setPayload(CreateWebhookRequest)
      .addSuccess(CreatedWebhookEndpointResponse)
      .addError(Conflict)
      .annotateContext(
        OpenApi.annotations({
          summary: "Create a webhook endpoint",
          description:
            'Registers a URL that receives `call.started`, `call.ended`, `call.analyzed` (the analysis after a call or chat, completed or failed), `call.deleted`, `campaign.started`, `campaign.completed` and `campaign.contact.skipped` (all of them unless `events` says otherwise) as JSON POSTs `{type, timestamp, data}` signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`). The answer carries the signing `secret` once. A delivery that meets a network error, a timeout, 408, 425, 429 or 5xx is retried up to 5 attempts, waiting min(30·2^(n-1), 600) seconds; the `webhook-id` stays the same, so receivers de-duplicate on it. An organization has at most 20 endpoints unless the server is configured otherwise (\`QUOTA_WEBHOOK_ENDPOINTS\`); one more answers 409 \`{detail}\`.'
        })
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/webhooks")
      .setUrlParams(PageQuery)
      .addSuccess(PageOf(WebhookEndpointResponse, "WebhookEndpointPage"))
      .annotateContext(
        OpenApi.annotations({
          summary: "List webhook endpoints",
          description: "The organization's webhook endpoints, newest first, without secrets."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/webhooks/:webhook_id")
      .setPath(webhookPath)
      .addSuccess(WebhookEndpointResponse)
      .addError(NotFound)
      .annotateContext(
        OpenApi.annotations({
          summary: "Get a webhook endpoint",
          description: "One webhook endpoint, without its secret."
        })
      )
  )
  .add(
    HttpApiEndpoint.patch("update", "/webhooks/:webhook_id")
      .setPath(webhookPath)
      .setPayload(UpdateWebhookRequest)
      .addSuccess(WebhookEndpointResponse)
      .addError(NotFound)
      .annotateContext(
        OpenApi.annotations({
          summary: "Update a webhook endpoint",
          description:
            "Changes `url`, `events`, `description` or `enabled`; omitted fields stay. A disabled endpoint gets no new events, and its pending deliveries wait until it is enabled again."
        })
      )
  )
  .add(
    HttpApiEndpoint.del("delete", "/webhooks/:webhook_id")
      .setPath(webhookPath)
      .addSuccess(HttpApiSchema.NoContent)
      .addError(NotFound)
      .annotateContext(
        OpenApi.annotations({
          summary: "Delete a webhook endpoint",
          description: "Deletes the endpoint with its delivery log; deliveries still pending are not sent."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("deliveries", "/webhooks/:webhook_id/deliveries")
      .setPath(webhookPath)
      .setUrlParams(PageQuery)
      .addSuccess(PageOf(WebhookDeliveryResponse, "WebhookDeliveryPage"))
      .addError(NotFound)
      .annotateContext(
        OpenApi.annotations({
          summary: "List an endpoint's deliveries",
          description:
            "The delivery log, newest first: each event with its attempts, status (`pending`, `delivered`, `failed`), next attempt, and the last status code or error. Deleting a call removes the deliveries about it."
        })
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1") {}
