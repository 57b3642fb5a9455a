import { Context, Effect, Layer } from "effect"
import type { IpAddress } from "./IpAddress.js"
import { ResolutionFailed } from "./OutboundErrors.js"

/**
 * Resolves a host name to every address it has. A port so that the outbound client's checks can be
 * tested with names resolving anywhere (`localhost`, a name pointing at a private address).
 */
export class HostResolver extends Context.Tag("@voice-agent-platform/core/HostResolver")<
  HostResolver,
  { readonly resolve: (name: string) => Effect.Effect<ReadonlyArray<IpAddress>, ResolutionFailed> }
>() {}

/** A resolver answering from a fixed table (tests, static deployments); other names do not resolve. */
export const layerFixed = (table: Readonly<Record<string, ReadonlyArray<IpAddress>>>) =>
  Layer.succeed(HostResolver, {
    resolve: (name) => {
      const addresses = table[name.toLowerCase()]
      return addresses === undefined || addresses.length === 0
        ? Effect.fail(new ResolutionFailed({ detail: `${name} has no address` }))
        : Effect.succeed(addresses)
    }
  })
