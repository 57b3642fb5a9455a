import { Either, Option } from "effect"
import * as AllowList from "./AllowList.js"
import { endsInNumber, format, parseHost, type IpAddress } from "./IpAddress.js"
import { classify, type RefusedRangeName } from "./RefusedRanges.js"

/** Why a destination is refused. */
export type Refusal =
  | { readonly _tag: "InvalidUrl" }
  | { readonly _tag: "UnsupportedScheme"; readonly scheme: string }
  | { readonly _tag: "RefusedAddress"; readonly range: RefusedRangeName; readonly address: string }

/** What a URL's host is: an IP literal (already read in any spelling), or a name to resolve. */
export type Host =
  { readonly _tag: "Literal"; readonly address: IpAddress } | { readonly _tag: "Name"; readonly name: string }

/** Where a URL points: the scheme, the host as written, and what that host is. */
export interface Target {
  readonly url: URL
  readonly hostname: string
  readonly host: Host
}

/** Names that always mean this machine (RFC 6761): `localhost` and any name under it. */
export const isLoopbackName = (name: string): boolean => {
  const normal = AllowList.normalizeName(name)
  return normal === "localhost" || normal.endsWith(".localhost")
}

/** Reads an http(s) URL's host; refuses other schemes and URLs that do not parse. */
export const target = (text: string): Either.Either<Target, Refusal> => {
  if (!URL.canParse(text)) return Either.left({ _tag: "InvalidUrl" })
  const url = new URL(text)
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return Either.left({ _tag: "UnsupportedScheme", scheme: url.protocol.slice(0, -1) })
  }
  // The WHATWG parser has already turned IPv4 spellings into a dotted quad; reading the host again
  // keeps this rule right for hosts that did not come through it.
  const hostname = url.hostname
  const literal = parseHost(hostname)
  if (Option.isSome(literal))
    return Either.right({ url, hostname, host: { _tag: "Literal", address: literal.value } })
  if (endsInNumber(hostname)) return Either.left({ _tag: "InvalidUrl" })
  return Either.right({ url, hostname, host: { _tag: "Name", name: AllowList.normalizeName(hostname) } })
}

/** Refuses an address in a refused range unless the operator allowed it. */
export const checkAddress = (
  allowList: AllowList.AllowList,
  address: IpAddress
): Either.Either<IpAddress, Refusal> => {
  if (AllowList.allowsAddress(allowList, address)) return Either.right(address)
  return Option.match(classify(address), {
    onNone: () => Either.right(address),
    onSome: (range) => Either.left({ _tag: "RefusedAddress", range: range.name, address: format(address) })
  })
}

/**
 * What can be decided from the URL alone, before any name is resolved: the scheme, a literal address
 * in a refused range, a `localhost` name. A name allowed by the operator passes whatever it resolves to.
 */
export const checkUrl = (allowList: AllowList.AllowList, text: string): Either.Either<Target, Refusal> =>
  Either.flatMap(target(text), (t) => {
    if (t.host._tag === "Literal") return Either.map(checkAddress(allowList, t.host.address), () => t)
    if (AllowList.allowsName(allowList, t.host.name)) return Either.right(t)
    if (isLoopbackName(t.host.name)) {
      return Either.left({ _tag: "RefusedAddress", range: "loopback", address: t.host.name })
    }
    return Either.right(t)
  })

/**
 * Decides on the addresses a name resolved to: every one must be allowed (a name mixing public and
 * internal addresses is refused whole), unless the operator allowed the name itself.
 */
export const checkResolved = (
  allowList: AllowList.AllowList,
  name: string,
  addresses: ReadonlyArray<IpAddress>
): Either.Either<ReadonlyArray<IpAddress>, Refusal> => {
  if (AllowList.allowsName(allowList, name)) return Either.right(addresses)
  for (const address of addresses) {
    const checked = checkAddress(allowList, address)
    if (Either.isLeft(checked)) return Either.left(checked.left)
  }
  return Either.right(addresses)
}

/** A sentence for a refusal, about the URL its author wrote (never about what a name resolved to). */
export const describe = (refusal: Refusal): string => {
  switch (refusal._tag) {
    case "InvalidUrl":
      return "must be an absolute http or https URL"
    case "UnsupportedScheme":
      return "must be an absolute http or https URL"
    case "RefusedAddress":
      return `must not point to a ${refusal.range.replaceAll("_", " ")} address`
  }
}
