import { Config, Context, Effect, Layer, Option } from "effect"
import type { OAuthClient } from "./OAuthProviders.js"
import { knownProviders } from "./OAuthProviders.js"

/**
 * The OAuth clients this deployment has: configuration provided by the host. Unlike a port it has a
 * default, none configured, so a host that offers no OAuth sign-in needs to provide nothing.
 */
export class OAuthProvidersConfig extends Context.Reference<OAuthProvidersConfig>()(
  "@voice-agent-platform/core/OAuthProvidersConfig",
  { defaultValue: (): ReadonlyArray<OAuthClient> => [] }
) {}

/** The given clients. */
export const layer = (clients: ReadonlyArray<OAuthClient>): Layer.Layer<OAuthProvidersConfig> =>
  Layer.succeed(OAuthProvidersConfig, clients)

/** A client for each known provider whose `OAUTH_<PROVIDER>_CLIENT_ID` is set (e.g. `OAUTH_GOOGLE_CLIENT_ID`). */
export const layerConfig: Layer.Layer<OAuthProvidersConfig> = Layer.effect(
  OAuthProvidersConfig,
  Effect.map(
    Effect.forEach(knownProviders, ({ provider }) =>
      Config.option(Config.nonEmptyString(`OAUTH_${provider.toUpperCase()}_CLIENT_ID`)).pipe(
        Effect.map(Option.map((client_id): OAuthClient => ({ provider, client_id }))),
        Effect.orElseSucceed(() => Option.none<OAuthClient>())
      )
    ),
    (found) => found.flatMap(Option.toArray)
  )
)
