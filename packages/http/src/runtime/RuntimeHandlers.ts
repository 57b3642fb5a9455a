import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../Api.js"

/** Handlers of the runtime ingestion group. */
export const RuntimeHandlers = HttpApiBuilder.group(Api, "runtime", (handlers) => Effect.succeed(handlers))
