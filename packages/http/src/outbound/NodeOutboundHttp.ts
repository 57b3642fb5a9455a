import {
  Destination,
  HostResolver,
  IpAddress,
  OutboundHttp,
  OutboundPolicy,
  OutboundErrors
} from "@voice-agent-platform/core"
import { Clock, Duration, Effect, Either, Layer } from "effect"
import * as http from "node:http"
import * as https from "node:https"
import type { LookupFunction } from "node:net"
import * as NodeHostResolver from "./NodeHostResolver.js"

const { OutboundFailure } = OutboundErrors

/** The real clock: a network exchange takes real time even where a test clock drives the rest. */
const realClock = Clock.make()

const failure = (category: OutboundHttp.OutboundFailureCategory, detail: string) =>
  new OutboundFailure({ category, detail })

/** A `lookup` that answers only the address already checked: Node connects there and nowhere else. */
const pinnedLookup =
  (address: IpAddress.IpAddress): LookupFunction =>
  (_hostname, options, callback) => {
    const text = IpAddress.format(address)
    if (options.all === true) {
      ;(callback as (error: null, addresses: Array<{ address: string; family: number }>) => void)(null, [
        { address: text, family: address.family }
      ])
    } else {
      callback(null, text, address.family)
    }
  }

/** Lower-case header names, repeated values joined with `, `. */
const flatHeaders = (headers: http.IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers).flatMap(([name, value]) =>
      value === undefined ? [] : [[name, Array.isArray(value) ? value.join(", ") : value]]
    )
  )

/**
 * One exchange with the checked address: no redirect is followed (node:http never does), the response
 * body is read up to the cap and the connection destroyed past it, and interrupting the effect (the
 * deadline) destroys the socket.
 */
const exchange = (
  target: Destination.Target,
  address: IpAddress.IpAddress,
  request: OutboundHttp.OutboundRequest
) =>
  Effect.async<OutboundHttp.OutboundResponse, OutboundErrors.OutboundFailure>((resume) => {
    const { url } = target
    const secure = url.protocol === "https:"
    const named = target.host._tag === "Name"
    const body =
      request.body === undefined
        ? undefined
        : typeof request.body === "string"
          ? Buffer.from(request.body, "utf8")
          : Buffer.from(request.body)
    let settled = false
    const settle = (result: Effect.Effect<OutboundHttp.OutboundResponse, OutboundErrors.OutboundFailure>) => {
      if (settled) return
      settled = true
      resume(result)
    }
    const options: https.RequestOptions = {
      method: request.method,
      // A name stays the host (Host header, TLS name check); the lookup pins the checked address.
      host: named ? target.hostname : IpAddress.format(address),
      port: url.port === "" ? (secure ? 443 : 80) : Number(url.port),
      path: `${url.pathname}${url.search}`,
      headers: {
        ...request.headers,
        host: url.host,
        ...(body === undefined ? {} : { "content-length": String(body.length) })
      },
      agent: false,
      lookup: pinnedLookup(address),
      ...(secure && named ? { servername: target.hostname } : {})
    }
    const outgoing = (secure ? https : http).request(options, (incoming) => {
      const chunks: Array<Buffer> = []
      let size = 0
      const done = (truncated: boolean) =>
        settle(
          Effect.succeed({
            status: incoming.statusCode ?? 0,
            headers: flatHeaders(incoming.headers),
            body: new Uint8Array(Buffer.concat(chunks)),
            truncated
          })
        )
      incoming.on("data", (chunk: Buffer) => {
        if (settled) return
        const room = request.maxResponseBytes - size
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room))
          size += room
          done(true)
          outgoing.destroy()
          return
        }
        chunks.push(chunk)
        size += chunk.length
      })
      incoming.on("end", () => done(false))
      incoming.on("error", (error) => settle(Effect.fail(failure("connection_failed", error.message))))
      incoming.on("aborted", () => settle(Effect.fail(failure("connection_failed", "response aborted"))))
    })
    outgoing.on("error", (error) => settle(Effect.fail(failure("connection_failed", error.message))))
    outgoing.end(body)
    return Effect.sync(() => {
      settled = true
      outgoing.destroy()
    })
  })

/**
 * Sends one request through the policy: the URL's host is read (any IP spelling), a name is resolved
 * (every address), the request is refused when any address is refused and not allowed, and otherwise
 * sent to the first checked address. The deadline covers resolution, connection, answer and body.
 */
export const send = (
  request: OutboundHttp.OutboundRequest
): Effect.Effect<
  OutboundHttp.OutboundResponse,
  OutboundErrors.OutboundFailure,
  OutboundPolicy.OutboundPolicy | HostResolver.HostResolver
> =>
  Effect.gen(function* () {
    const policy = yield* OutboundPolicy.OutboundPolicy
    const resolver = yield* HostResolver.HostResolver
    const checked = policy.checkUrl(request.url)
    if (Either.isLeft(checked)) {
      return yield* Effect.fail(failure("destination_not_allowed", Destination.describe(checked.left)))
    }
    const target = checked.right
    let address: IpAddress.IpAddress
    if (target.host._tag === "Literal") {
      address = target.host.address
    } else {
      const resolved = yield* resolver
        .resolve(target.host.name)
        .pipe(Effect.mapError((error) => failure("connection_failed", error.detail)))
      const allowed = Destination.checkResolved(policy.allowList, target.host.name, resolved)
      if (Either.isLeft(allowed)) {
        return yield* Effect.fail(
          failure("destination_not_allowed", `${target.host.name}: ${Destination.describe(allowed.left)}`)
        )
      }
      address = allowed.right[0]!
    }
    return yield* exchange(target, address, request)
  }).pipe(
    Effect.timeoutFail({
      duration: request.timeout,
      onTimeout: () =>
        failure("timeout", `no answer within ${Duration.format(Duration.decode(request.timeout))}`)
    }),
    Effect.withClock(realClock)
  )

/** The outbound client on node:http/https, with the policy and resolver it is given. */
export const layerWith: Layer.Layer<
  OutboundHttp.OutboundHttp,
  never,
  OutboundPolicy.OutboundPolicy | HostResolver.HostResolver
> = Layer.effect(
  OutboundHttp.OutboundHttp,
  Effect.map(Effect.context<OutboundPolicy.OutboundPolicy | HostResolver.HostResolver>(), (context) => ({
    send: (request) => Effect.provide(send(request), context)
  }))
)

/** The outbound client on node:http/https, resolving names with the operating system's resolver. */
export const layer: Layer.Layer<OutboundHttp.OutboundHttp, never, OutboundPolicy.OutboundPolicy> =
  layerWith.pipe(Layer.provide(NodeHostResolver.layer))
