import { RuntimeAuthentication } from "@voice-agent-platform/contract/middleware/RuntimeAuthentication.js"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import * as BearerToken from "./BearerToken.js"

/**
 * The voice-runtime token (`RUNTIME_TOKEN`); none means the ingestion routes are off. A reference that
 * defaults to none, so hosts and tests that never drive an out-of-process runtime need not provide it.
 */
export class RuntimeToken extends Context.Reference<RuntimeToken>()(
  "@voice-agent-platform/http/RuntimeToken",
  {
    defaultValue: (): Option.Option<Redacted.Redacted<string>> => Option.none()
  }
) {}

/** The middleware tag is part of the contract; this is the server's side. */
export { RuntimeAuthentication } from "@voice-agent-platform/contract/middleware/RuntimeAuthentication.js"

/** Checks the bearer token in constant time (`BearerToken.check`). Without `RUNTIME_TOKEN` the ingestion routes do not exist (404). */
export const layer = Layer.effect(
  RuntimeAuthentication,
  Effect.map(RuntimeToken, (token) => ({
    bearer: (given: Redacted.Redacted<string>) => BearerToken.check(token, given, "Invalid runtime token")
  }))
)

/** The runtime token from configuration. */
export const layerToken = (token: Option.Option<Redacted.Redacted<string>>) =>
  Layer.succeed(RuntimeToken, token)
