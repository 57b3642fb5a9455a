import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../Api.js"

/** Handlers of the webhooks group. */
export const WebhooksHandlers = HttpApiBuilder.group(Api, "webhooks", (handlers) => Effect.succeed(handlers))
