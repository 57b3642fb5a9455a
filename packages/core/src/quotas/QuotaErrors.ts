import { Schema } from "effect"

/** What a quota counts. */
export const QuotaResource = Schema.Literal("webhook_endpoints", "documents", "campaigns", "api_keys")
export type QuotaResource = typeof QuotaResource.Type

const nouns: Record<QuotaResource, string> = {
  webhook_endpoints: "webhook endpoints",
  documents: "knowledge-base documents",
  campaigns: "campaigns not yet completed or canceled",
  api_keys: "active API keys"
}

const remedies: Record<QuotaResource, string> = {
  webhook_endpoints: "delete one",
  documents: "delete one",
  campaigns: "cancel one or let one complete",
  api_keys: "revoke one"
}

/** The organization holds as many records of the kind as its quota allows; nothing was created (409). */
export class QuotaExceeded extends Schema.TaggedError<QuotaExceeded>()("QuotaExceeded", {
  resource: QuotaResource,
  limit: Schema.Number
}) {
  override get message() {
    return `quota_exceeded: the organization has ${this.limit} ${nouns[this.resource]}, the most it may have; ${remedies[this.resource]} before creating another`
  }
}
