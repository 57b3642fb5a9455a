import { HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import { Schema } from "effect"
import { NotFound, Unauthorized } from "../errors/ApiErrors.js"

/**
 * `Authorization: Bearer <RUNTIME_TOKEN>` on every `/runtime/v1` route. The server's check is
 * `RuntimeAuthentication.layer` of `@voice-agent-platform/http`.
 */
export class RuntimeAuthentication extends HttpApiMiddleware.Tag<RuntimeAuthentication>()(
  "RuntimeAuthentication",
  {
    failure: Schema.Union(Unauthorized, NotFound),
    security: { bearer: HttpApiSecurity.bearer }
  }
) {}
