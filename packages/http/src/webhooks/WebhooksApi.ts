import { HttpApiGroup } from "@effect/platform"
import { Authentication } from "../middleware/Authentication.js"

/** Webhook endpoints of the organization and their delivery log. */
export class WebhooksApi extends HttpApiGroup.make("webhooks").middleware(Authentication).prefix("/api/v1") {}
