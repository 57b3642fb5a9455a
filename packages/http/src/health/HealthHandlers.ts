import { OrganizationStore, OperationSpans } from "@voice-agent-platform/core"
import { Effect } from "effect"
import { Api } from "@voice-agent-platform/contract/Api.js"
import { ServiceUnavailable } from "@voice-agent-platform/contract/errors/ApiErrors.js"
import * as CapturedGroups from "../direct/CapturedGroups.js"

/** Handlers of the health group. */
export const HealthHandlers = CapturedGroups.group(Api, "health", (handlers) =>
  Effect.gen(function* () {
    const organizations = yield* OrganizationStore.OrganizationStore
    return handlers
      .handle(
        "health",
        OperationSpans.fn("Health.health")(function* () {
          return { status: "ok" as const }
        })
      )
      .handle(
        "ready",
        OperationSpans.fn("Health.ready")(function* () {
          yield* organizations.count.pipe(
            Effect.timeout("2 seconds"),
            Effect.catchAllCause((cause) =>
              Effect.logWarning("readiness check failed", cause).pipe(
                Effect.zipRight(Effect.fail(new ServiceUnavailable({ detail: "storage is not answering" })))
              )
            )
          )
          return { status: "ready" as const }
        })
      )
  })
)
