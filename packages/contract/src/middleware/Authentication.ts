import { HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import type * as Organization from "@voice-agent-platform/core/organizations/Organization.js"
import { Context } from "effect"
import { Unauthorized } from "../errors/ApiErrors.js"

/** The organization that owns the request's API key; every handler acts within it. */
export class CurrentOrganization extends Context.Tag("@voice-agent-platform/http/CurrentOrganization")<
  CurrentOrganization,
  Organization.Organization
>() {}

/**
 * `X-API-Key` on every organization route: resolves the key to its organization, else 401. The server's
 * implementation (looking the key up) is `Authentication.layer` of `@voice-agent-platform/http`.
 */
export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("Authentication", {
  failure: Unauthorized,
  provides: CurrentOrganization,
  security: {
    apiKey: HttpApiSecurity.apiKey({ in: "header", key: "X-API-Key" })
  }
}) {}
