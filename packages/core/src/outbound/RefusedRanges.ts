import { Option } from "effect"
import { cidr, contains, type Cidr, type IpAddress } from "./IpAddress.js"

/** Why an address is refused as a destination: the special-purpose range it falls in. */
export type RefusedRangeName =
  | "unspecified"
  | "this_network"
  | "loopback"
  | "private"
  | "carrier_grade_nat"
  | "link_local"
  | "ietf_protocol_assignments"
  | "documentation"
  | "benchmarking"
  | "relay_anycast"
  | "multicast"
  | "reserved"
  | "broadcast"
  | "ipv4_mapped"
  | "ipv4_compatible"
  | "ipv4_translated"
  | "nat64"
  | "discard_only"
  | "6to4"
  | "unique_local"
  | "site_local"

/** A refused range and why. */
export interface RefusedRange {
  readonly name: RefusedRangeName
  readonly range: Cidr
}

const refused = (name: RefusedRangeName, text: string): RefusedRange => ({ name, range: cidr(text) })

/**
 * The IPv4 ranges no tenant may reach (IANA IPv4 Special-Purpose Address Registry, RFC 6890): nothing
 * in them is a public HTTP receiver, and several are the operator's own network.
 */
export const ipv4Ranges: ReadonlyArray<RefusedRange> = [
  refused("this_network", "0.0.0.0/8"),
  refused("private", "10.0.0.0/8"),
  refused("carrier_grade_nat", "100.64.0.0/10"),
  refused("loopback", "127.0.0.0/8"),
  refused("link_local", "169.254.0.0/16"),
  refused("private", "172.16.0.0/12"),
  refused("ietf_protocol_assignments", "192.0.0.0/24"),
  refused("documentation", "192.0.2.0/24"),
  refused("relay_anycast", "192.88.99.0/24"),
  refused("private", "192.168.0.0/16"),
  refused("benchmarking", "198.18.0.0/15"),
  refused("documentation", "198.51.100.0/24"),
  refused("documentation", "203.0.113.0/24"),
  refused("multicast", "224.0.0.0/4"),
  refused("broadcast", "255.255.255.255/32"),
  refused("reserved", "240.0.0.0/4")
]

/**
 * The IPv6 ranges refused inside global unicast (2000::/3), and the named ones outside it. Every IPv6
 * address outside 2000::/3 is refused (`reserved` when no name fits): the embedded-IPv4 forms (mapped,
 * compatible, translated, NAT64) are refused whole rather than judged by the IPv4 address inside, so no
 * spelling of an internal IPv4 address gets through them.
 */
export const ipv6Ranges: ReadonlyArray<RefusedRange> = [
  refused("unspecified", "::/128"),
  refused("loopback", "::1/128"),
  refused("ipv4_mapped", "::ffff:0:0/96"),
  refused("ipv4_compatible", "::/96"),
  refused("ipv4_translated", "::ffff:0:0:0/96"),
  refused("nat64", "64:ff9b::/96"),
  refused("nat64", "64:ff9b:1::/48"),
  refused("discard_only", "100::/64"),
  refused("documentation", "2001:db8::/32"),
  refused("ietf_protocol_assignments", "2001::/23"),
  refused("6to4", "2002::/16"),
  refused("documentation", "3fff::/20"),
  refused("unique_local", "fc00::/7"),
  refused("site_local", "fec0::/10"),
  refused("link_local", "fe80::/10"),
  refused("multicast", "ff00::/8")
]

const globalUnicast = cidr("2000::/3")
const reservedIpv6: RefusedRange = { name: "reserved", range: cidr("::/0") }

/** The refused range an address falls in, or None when it may be a destination. */
export const classify = (address: IpAddress): Option.Option<RefusedRange> => {
  const ranges = address.family === 4 ? ipv4Ranges : ipv6Ranges
  const hit = ranges.find((r) => contains(r.range, address))
  if (hit !== undefined) return Option.some(hit)
  if (address.family === 6 && !contains(globalUnicast, address)) return Option.some(reservedIpv6)
  return Option.none()
}
