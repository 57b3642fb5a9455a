import { Organizations } from "@voice-agent-platform/core"
import { Console, Effect, Option, Redacted } from "effect"
import type { ServerConfig } from "./ServerConfig.js"

/** The name of the organization the server creates for itself. */
export const defaultOrganizationName = "Default organization"

/**
 * What a fresh server does before it serves: with `BOOTSTRAP_API_KEY`, make sure an organization answers
 * to that key; otherwise, on an empty store, create one organization and print its API key once.
 */
export const run = (config: ServerConfig) =>
  Effect.gen(function* () {
    const organizations = yield* Organizations.Organizations
    if (Option.isSome(config.bootstrapApiKey)) {
      const { organization, created } = yield* organizations.ensureWithKey(
        Redacted.value(config.bootstrapApiKey.value),
        defaultOrganizationName
      )
      yield* Console.log(
        created
          ? `Created organization ${organization.id} for BOOTSTRAP_API_KEY.`
          : `BOOTSTRAP_API_KEY belongs to organization ${organization.id}.`
      )
      return
    }
    if (!(yield* organizations.isEmpty)) return
    const { organization, key } = yield* organizations.create({ name: defaultOrganizationName })
    yield* Console.log(
      [
        `Created organization ${organization.id} with this API key (shown once, keep it safe):`,
        ``,
        `  ${key.api_key}`,
        ``,
        `Send it as the X-API-Key header.`
      ].join("\n")
    )
  })
