import { Config, ConfigError, Context, Either, Layer } from "effect"
import * as AllowList from "./AllowList.js"
import * as Destination from "./Destination.js"

/**
 * Where the engine may connect on a tenant's behalf: the refused address ranges, widened by the
 * operator's allow-list. The outbound client decides with it; the HTTP layer reads it to refuse a
 * disallowed literal address in a URL with a 422.
 */
export class OutboundPolicy extends Context.Tag("@voice-agent-platform/core/OutboundPolicy")<
  OutboundPolicy,
  {
    readonly allowList: AllowList.AllowList
    /** What the URL alone decides (see `Destination.checkUrl`). */
    readonly checkUrl: (url: string) => Either.Either<Destination.Target, Destination.Refusal>
  }
>() {}

/** The policy with this allow-list. */
export const make = (allowList: AllowList.AllowList): OutboundPolicy["Type"] => ({
  allowList,
  checkUrl: (url) => Destination.checkUrl(allowList, url)
})

/** The policy allowing the given hosts, addresses and ranges (the `OUTBOUND_ALLOW_HOSTS` syntax). */
export const layer = (allowList: AllowList.AllowList = AllowList.empty): Layer.Layer<OutboundPolicy> =>
  Layer.succeed(OutboundPolicy, make(allowList))

/** Nothing allowed beyond the public internet. */
export const layerDefault: Layer.Layer<OutboundPolicy> = layer()

/** `OUTBOUND_ALLOW_HOSTS` as an allow-list (empty when unset); a malformed entry is a configuration error. */
export const allowHostsConfig: Config.Config<AllowList.AllowList> = Config.string(
  "OUTBOUND_ALLOW_HOSTS"
).pipe(
  Config.withDefault(""),
  Config.mapOrFail((text) =>
    Either.mapLeft(AllowList.parse(text), (reason) =>
      ConfigError.InvalidData(["OUTBOUND_ALLOW_HOSTS"], `OUTBOUND_ALLOW_HOSTS: ${reason}`)
    )
  )
)

/** The policy from `OUTBOUND_ALLOW_HOSTS`. */
export const layerConfig: Layer.Layer<OutboundPolicy, ConfigError.ConfigError> = Layer.effect(
  OutboundPolicy,
  Config.map(allowHostsConfig, make)
)
