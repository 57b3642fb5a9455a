import { Cause, Context, Effect, Layer, Option } from "effect"

/**
 * Where links the API hands out point to (`download_url`, `files`). None (the default) derives the origin
 * from each request: its `Host` header, and `https` when `X-Forwarded-Proto` says so. Set it (e.g. from
 * `PUBLIC_BASE_URL`) whenever the server sits behind a proxy or is reached under several names: a link
 * built from a client-supplied `Host` points wherever that client said.
 */
export class PublicBaseUrl extends Context.Reference<PublicBaseUrl>()(
  "@voice-agent-platform/http/PublicBaseUrl",
  { defaultValue: (): Option.Option<string> => Option.none() }
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
