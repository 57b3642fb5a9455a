import { Schema } from "effect"

/** No such endpoint in the organization (another organization's is "not found" too). */
export class WebhookEndpointNotFound extends Schema.TaggedError<WebhookEndpointNotFound>()(
  "WebhookEndpointNotFound",
  { webhook_id: Schema.String }
) {
  override get message() {
    return `Webhook endpoint ${this.webhook_id} not found`
  }
}
