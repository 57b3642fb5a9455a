import { Either, Option } from "effect"
import { contains, parseCidr, parseHost, unmapped, type Cidr, type IpAddress } from "./IpAddress.js"

/**
 * The destinations an operator lets through although their addresses are refused
 * (`OUTBOUND_ALLOW_HOSTS`): host names (exact, case-insensitive), addresses and CIDR ranges.
 */
export interface AllowList {
  readonly names: ReadonlySet<string>
  readonly ranges: ReadonlyArray<Cidr>
}

/** Nothing allowed beyond the public internet: the default. */
export const empty: AllowList = { names: new Set(), ranges: [] }

/** A host name as compared: lower case, without a trailing dot. */
export const normalizeName = (name: string): string => name.toLowerCase().replace(/\.$/, "")

const hostName = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*$/

/**
 * Parses a comma-separated list (`127.0.0.1,10.0.0.0/8,crm.internal,[::1],fd00::/8`); blanks around
 * entries are ignored. Fails with the first entry that is neither a name, an address nor a range.
 */
export const parse = (text: string): Either.Either<AllowList, string> => {
  const names = new Set<string>()
  const ranges: Array<Cidr> = []
  for (const raw of text.split(",")) {
    const entry = raw.trim()
    if (entry === "") continue
    if (entry.includes("/")) {
      const range = parseCidr(entry.replace(/^\[(.*)\](\/\d+)$/, "$1$2"))
      if (Option.isNone(range)) return Either.left(`"${entry}" is not a CIDR range`)
      ranges.push(range.value)
      continue
    }
    const address = parseHost(entry)
    if (Option.isSome(address)) {
      ranges.push({ base: address.value, prefix: address.value.family === 4 ? 32 : 128 })
      continue
    }
    const name = normalizeName(entry)
    if (!hostName.test(name)) return Either.left(`"${entry}" is not a host name, an address or a CIDR range`)
    names.add(name)
  }
  return Either.right({ names, ranges })
}

/** Whether the operator allowed this host name (every address it resolves to is then allowed). */
export const allowsName = (list: AllowList, name: string): boolean => list.names.has(normalizeName(name))

/** Whether the operator allowed this address (an IPv4-mapped IPv6 address counts as its IPv4 address). */
export const allowsAddress = (list: AllowList, address: IpAddress): boolean => {
  const candidates = [address, ...Option.toArray(unmapped(address))]
  return list.ranges.some((range) => candidates.some((candidate) => contains(range, candidate)))
}
