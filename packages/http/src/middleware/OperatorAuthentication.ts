import { HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import { Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import { createHash, timingSafeEqual } from "node:crypto"
import { NotFound, Unauthorized } from "../errors/ApiErrors.js"

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

const digest = (value: string) => createHash("sha256").update(value).digest()

/**
 * Checks the bearer token in constant time (comparing digests, so lengths leak nothing). Without
 * `ADMIN_TOKEN` the operator API does not exist: every route answers 404, as an unknown route would.
 */
export const layer = Layer.effect(
  OperatorAuthentication,
  Effect.map(AdminToken, (token) => ({
    bearer: (given: Redacted.Redacted<string>) =>
      Option.match(token, {
        onNone: () => Effect.fail(new NotFound({ detail: "Not Found" })),
        onSome: (expected) =>
          timingSafeEqual(digest(Redacted.value(given)), digest(Redacted.value(expected)))
            ? Effect.void
            : Effect.fail(new Unauthorized({ detail: "Invalid operator token" }))
      })
  }))
)

/** The operator token from configuration. */
export const layerToken = (token: Option.Option<Redacted.Redacted<string>>) =>
  Layer.succeed(AdminToken, token)
