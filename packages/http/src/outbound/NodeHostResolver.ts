import { HostResolver, IpAddress, OutboundErrors } from "@voice-agent-platform/core"
import { Effect, Layer, Option } from "effect"
import { lookup } from "node:dns/promises"

/** Resolves names with the operating system's resolver (`getaddrinfo`, as Node connects), every address. */
export const layer: Layer.Layer<HostResolver.HostResolver> = Layer.succeed(HostResolver.HostResolver, {
  resolve: (name) =>
    Effect.tryPromise({
      try: () => lookup(name, { all: true, verbatim: true }),
      catch: (error) =>
        new OutboundErrors.ResolutionFailed({
          detail: error instanceof Error ? error.message : String(error)
        })
    }).pipe(
      Effect.flatMap((answers) => {
        const addresses = answers.flatMap((answer) => Option.toArray(IpAddress.parseHost(answer.address)))
        return addresses.length === 0
          ? Effect.fail(new OutboundErrors.ResolutionFailed({ detail: `${name} has no address` }))
          : Effect.succeed(addresses)
      })
    )
})
