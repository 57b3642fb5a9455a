import { Destination, OutboundPolicy, type ToolDefinition } from "@voice-agent-platform/core"
import { Effect, Either } from "effect"
import { ValidationError } from "@voice-agent-platform/contract/errors/ApiErrors.js"

/**
 * Refuses a URL whose literal host the outbound policy refuses (a loopback, private, link-local… address
 * in any spelling, or `localhost`) with a 422 at `loc`; names are judged again when a request is sent,
 * after resolution.
 */
export const requireAllowedUrl = (
  url: string,
  loc: ReadonlyArray<string>
): Effect.Effect<void, ValidationError, OutboundPolicy.OutboundPolicy> =>
  Effect.flatMap(OutboundPolicy.OutboundPolicy, (policy) => {
    const checked = policy.checkUrl(url)
    return Either.isRight(checked)
      ? Effect.void
      : Effect.fail(
          new ValidationError({
            detail: [
              { loc, msg: Destination.describe(checked.left), type: "value_error.destination_not_allowed" }
            ]
          })
        )
  })

/** Runs a handler only once its URL (when given) passes `requireAllowedUrl`: for the handler's `pipe`. */
export const afterAllowedUrl =
  (url: string | undefined, loc: ReadonlyArray<string>) =>
  <A, E, R>(
    handler: Effect.Effect<A, E, R>
  ): Effect.Effect<A, E | ValidationError, R | OutboundPolicy.OutboundPolicy> =>
    url === undefined ? handler : Effect.zipRight(requireAllowedUrl(url, loc), handler)

/** Runs a handler only once an `http_api` tool definition's URL (when given) passes `requireAllowedUrl`. */
export const afterAllowedToolUrl = (definition: ToolDefinition.ToolDefinition | undefined) =>
  afterAllowedUrl(definition?.type === "http_api" ? definition.config.url : undefined, [
    "body",
    "definition",
    "config",
    "url"
  ])
