import { HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import { Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import { NotFound, Unauthorized } from "../errors/ApiErrors.js"
import * as BearerToken from "./BearerToken.js"

/** The operator token (`ADMIN_TOKEN`); none means the operator API is off. */
export class AdminToken extends Context.Tag("@voice-agent-platform/http/AdminToken")<
  AdminToken,
  Option.Option<Redacted.Redacted<string>>
>() {}

/** `Authorization: Bearer <ADMIN_TOKEN>` on every `/admin/v1` route. */
export class OperatorAuthentication extends HttpApiMiddleware.Tag<OperatorAuthentication>()(
  "OperatorAuthentication",
  {
    failure: Schema.Union(Unauthorized, NotFound),
    security: { bearer: HttpApiSecurity.bearer }
  }
) {}

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
