import { HttpServer, HttpServerRequest } from "@effect/platform"
import { Cause, Context, Effect, Layer, Option } from "effect"

/**
 * Where links the API hands out point to (`download_url`, `files`). Set it (e.g. from `PUBLIC_BASE_URL`)
 * whenever the server sits behind a proxy or is reached under another name than the one it listens on.
 * When it is not set, a link takes the origin the request came to only if its `Host` is a trusted one
 * (`TrustedHosts`), and otherwise the server's own listening address: a `Host` header is whatever the
 * client wrote, and a link built from it would point wherever that client said.
 */
export class PublicBaseUrl extends Context.Reference<PublicBaseUrl>()(
  "@voice-agent-platform/http/PublicBaseUrl",
  { defaultValue: (): Option.Option<string> => Option.none() }
) {}

/**
 * The `Host` values (`name` or `name:port`, compared without case) whose origin a link may take when no
 * `PublicBaseUrl` is set; `"*"` trusts any, which is only right behind a proxy that checks `Host` itself.
 * None by default.
 */
export class TrustedHosts extends Context.Reference<TrustedHosts>()(
  "@voice-agent-platform/http/TrustedHosts",
  {
    defaultValue: (): ReadonlyArray<string> => []
  }
) {}

/**
 * A fixed base URL such as `https://api.example.com` or `https://example.com/voice` (a trailing `/` is
 * dropped); anything but an absolute http(s) URL without query or fragment is refused.
 */
export const layer = (baseUrl: string): Layer.Layer<PublicBaseUrl, Cause.IllegalArgumentException> =>
  Layer.effect(
    PublicBaseUrl,
    Effect.suspend(() => {
      const url = URL.canParse(baseUrl) ? new URL(baseUrl) : undefined
      return url === undefined ||
        (url.protocol !== "http:" && url.protocol !== "https:") ||
        url.search !== "" ||
        url.hash !== ""
        ? Effect.fail(
            new Cause.IllegalArgumentException(
              `PUBLIC_BASE_URL must be an absolute http(s) URL without query or fragment, got ${JSON.stringify(baseUrl)}`
            )
          )
        : Effect.succeed(Option.some(`${url.origin}${url.pathname.replace(/\/+$/, "")}`))
    })
  )

const hostPattern = /^(\*|[a-z0-9.-]+(:\d{1,5})?|\[[0-9a-f:.]+\](:\d{1,5})?)$/

/**
 * Trusts the request's origin when its `Host` is one of `hosts` (`api.example.com`, `localhost:8080`,
 * `[::1]:8080`, or `*` for any, as every version before this one did); a malformed entry is refused.
 */
export const layerTrustedHosts = (
  hosts: ReadonlyArray<string>
): Layer.Layer<TrustedHosts, Cause.IllegalArgumentException> =>
  Layer.effect(
    TrustedHosts,
    Effect.suspend(() => {
      const normalized = hosts.map((host) => host.trim().toLowerCase()).filter((host) => host !== "")
      const bad = normalized.find((host) => !hostPattern.test(host))
      return bad === undefined
        ? Effect.succeed(normalized)
        : Effect.fail(
            new Cause.IllegalArgumentException(
              `PUBLIC_HOSTS entries must be host names or addresses with an optional port, got ${JSON.stringify(bad)}`
            )
          )
    })
  )

/** The origin of the address the server listens on; a wildcard address is named `localhost`. */
const listeningOrigin = Effect.map(Effect.serviceOption(HttpServer.HttpServer), (server) => {
  if (Option.isNone(server) || server.value.address._tag !== "TcpAddress") return "http://localhost"
  const { hostname, port } = server.value.address
  const host =
    hostname === "0.0.0.0" || hostname === "::" || hostname === ""
      ? "localhost"
      : hostname.includes(":")
        ? `[${hostname}]`
        : hostname
  return `http://${host}:${port}`
})

/**
 * The URL a request came to: a web handler's fetch `Request` carries it whole (and no `Host` header); on
 * a node server it is made of `Host` (and `https` when `X-Forwarded-Proto` says so).
 */
const requestUrl = (request: HttpServerRequest.HttpServerRequest): Option.Option<URL> => {
  const source = request.source
  if (typeof Request !== "undefined" && source instanceof Request && URL.canParse(source.url)) {
    const url = new URL(source.url)
    if (request.headers["x-forwarded-proto"] === "https") url.protocol = "https:"
    return Option.some(url)
  }
  return HttpServerRequest.toURL(request)
}

/**
 * The origin links point to: `PublicBaseUrl` when set; else the request's own origin when its `Host` is
 * trusted (`TrustedHosts`; `https` when `X-Forwarded-Proto` says so); else the listening address.
 */
export const linkOrigin: Effect.Effect<string, never, HttpServerRequest.HttpServerRequest> = Effect.gen(
  function* () {
    const configured = yield* PublicBaseUrl
    if (Option.isSome(configured)) return configured.value
    const trusted = yield* TrustedHosts
    const url = requestUrl(yield* HttpServerRequest.HttpServerRequest)
    if (Option.isSome(url) && (trusted.includes("*") || trusted.includes(url.value.host.toLowerCase()))) {
      return url.value.origin
    }
    return yield* listeningOrigin
  }
)
