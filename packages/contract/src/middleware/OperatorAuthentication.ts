import { HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import { Schema } from "effect"
import { NotFound, Unauthorized } from "../errors/ApiErrors.js"

/**
 * `Authorization: Bearer <ADMIN_TOKEN>` on every `/admin/v1` route. The server's check is
 * `OperatorAuthentication.layer` of `@voice-agent-platform/http`.
 */
export class OperatorAuthentication extends HttpApiMiddleware.Tag<OperatorAuthentication>()(
  "OperatorAuthentication",
  {
    failure: Schema.Union(Unauthorized, NotFound),
    security: { bearer: HttpApiSecurity.bearer }
  }
) {}
