import { OperatorAuthentication } from "@voice-agent-platform/contract/middleware/OperatorAuthentication.js"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import * as BearerToken from "./BearerToken.js"

/** The operator token (`ADMIN_TOKEN`); none means the operator API is off. */
export class AdminToken extends Context.Tag("@voice-agent-platform/http/AdminToken")<
  AdminToken,
  Option.Option<Redacted.Redacted<string>>
>() {}

/** The middleware tag is part of the contract; this is the server's side. */
export { OperatorAuthentication } from "@voice-agent-platform/contract/middleware/OperatorAuthentication.js"

/** Checks the bearer token in constant time (`BearerToken.check`). Without `ADMIN_TOKEN` the operator API does not exist (404). */
export const layer = Layer.effect(
  OperatorAuthentication,
  Effect.map(AdminToken, (token) => ({
    bearer: (given: Redacted.Redacted<string>) => BearerToken.check(token, given, "Invalid operator token")
  }))
)

/** The operator token from configuration. */
export const layerToken = (token: Option.Option<Redacted.Redacted<string>>) =>
  Layer.succeed(AdminToken, token)
