import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../Api.js"

/** Handlers of the knowledgeBase group. */
export const KnowledgeBaseHandlers = HttpApiBuilder.group(Api, "knowledgeBase", (handlers) =>
  Effect.succeed(handlers)
)
