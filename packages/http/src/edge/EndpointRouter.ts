import type { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { HttpApi } from "@effect/platform"
import * as FindMyWay from "find-my-way-ts"

/** The operation a request is for, with its path parameters and query as the platform's router reads them. */
export interface EndpointMatch {
  readonly endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
  readonly params: Readonly<Record<string, string | undefined>>
  readonly searchParams: Readonly<Record<string, string | Array<string>>>
}

/**
 * Matches requests to the API's operations exactly as the platform's router does: the same library on
 * the raw request target, so a dot segment (`/phone-numbers/.`) or a raw `#` is seen the same way here
 * and there (a `URL` would normalise them into another route). `HEAD` falls back to `GET`, as there.
 */
export const make = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
): Matcher => {
  let matcher = matchers.get(api)
  if (matcher === undefined) {
    matcher = build(api)
    matchers.set(api, matcher)
  }
  return matcher
}

/** Matches a request's method and raw target to its operation. */
export type Matcher = (method: string, url: string) => EndpointMatch | undefined

/** One matcher per API, shared by everything that asks (so its last answer is shared too). */
const matchers = new WeakMap<object, Matcher>()

const build = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
): Matcher => {
  const router = FindMyWay.make<HttpApiEndpoint.HttpApiEndpoint.AnyWithProps>()
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) =>
      router.on(
        endpoint.method,
        endpoint.path,
        endpoint as unknown as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
      )
  })
  // The edge, the observation and the validation errors each ask about the same request: the last
  // answer is kept, so a request is matched once (a match depends on nothing but the method and target).
  let lastMethod = ""
  let lastUrl = ""
  let lastMatch: EndpointMatch | undefined
  return (method: string, url: string): EndpointMatch | undefined => {
    if (method === lastMethod && url === lastUrl) return lastMatch
    const found = router.find(method, url) ?? (method === "HEAD" ? router.find("GET", url) : undefined)
    // Frozen: the same answer may reach concurrent requests (the last match is shared), so none may
    // change what another reads.
    lastMatch =
      found === undefined
        ? undefined
        : Object.freeze({
            endpoint: found.handler,
            params: Object.freeze(found.params),
            searchParams: frozenQuery(found.searchParams)
          })
    lastMethod = method
    lastUrl = url
    return lastMatch
  }
}

/** The query frozen, its repeated parameters' lists too. */
const frozenQuery = (
  searchParams: Record<string, string | Array<string>>
): Readonly<Record<string, string | Array<string>>> => {
  for (const value of Object.values(searchParams)) if (Array.isArray(value)) Object.freeze(value)
  return Object.freeze(searchParams)
}
