import { Option } from "effect"
import ipaddr from "ipaddr.js"

/**
 * An IP address as a number: 32 bits for IPv4, 128 for IPv6. Kept as a `bigint` so that both families
 * share the range arithmetic.
 */
export interface IpAddress {
  readonly family: 4 | 6
  readonly value: bigint
}

/** The number of bits of an address of the family. */
export const bitsOf = (family: 4 | 6): number => (family === 4 ? 32 : 128)

/** An IPv4 address from its 32-bit value. */
export const ipv4 = (value: bigint | number): IpAddress => ({ family: 4, value: BigInt(value) })

/** An IPv6 address from its 128-bit value. */
export const ipv6 = (value: bigint): IpAddress => ({ family: 6, value })

const fromBytes = (bytes: ReadonlyArray<number>): bigint =>
  bytes.reduce((value, byte) => (value << 8n) | BigInt(byte), 0n)

const toBytes = (address: IpAddress): Array<number> => {
  const length = bitsOf(address.family) / 8
  return Array.from({ length }, (_, i) => Number((address.value >> BigInt(8 * (length - 1 - i))) & 255n))
}

/**
 * Whether a host "ends in a number" (WHATWG): its last label, a trailing dot aside, is all digits or
 * `0x` and hex digits. Such a host must be an IPv4 address or the URL is invalid.
 */
export const endsInNumber = (host: string): boolean => {
  const parts = host.split(".")
  if (parts[parts.length - 1] === "") {
    if (parts.length === 1) return false
    parts.pop()
  }
  return /^(?:[0-9]+|0x[0-9a-f]*)$/i.test(parts[parts.length - 1]!)
}

/**
 * Parses an IPv4 host in every spelling the WHATWG URL parser and `inet_aton` accept: one to four parts,
 * each decimal, octal (`0177`) or hex (`0x7f`), the last filling the remaining bytes (`127.1`,
 * `2130706433`, `0x7f.1`, `0`), an optional trailing dot. None when it is not such an address.
 * ipaddr.js reads the numbers; the two WHATWG spellings it does not know are rewritten first: the
 * trailing dot goes and an empty hex part (`0x`) is 0.
 */
export const parseIpv4 = (host: string): Option.Option<IpAddress> => {
  const parts = host.split(".")
  if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop()
  const text = parts.map((part) => (/^0x$/i.test(part) ? "0" : part)).join(".")
  return ipaddr.IPv4.isValid(text)
    ? Option.some(ipv4(fromBytes(ipaddr.IPv4.parse(text).toByteArray())))
    : Option.none()
}

/** A strict dotted quad (four decimal bytes, no leading zeros): the only IPv4 form RFC 4291 allows inside IPv6. */
const dottedQuad =
  /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])$/

/**
 * Parses an IPv6 address, with or without brackets, with or without a zone id (`fe80::1%eth0`,
 * `%25eth0` as in a URL; dropped), with `::` compression and a trailing dotted IPv4 (`::ffff:127.0.0.1`).
 * ipaddr.js reads the groups. The dotted tail is turned into two hex groups first: ipaddr.js reads
 * `::a.b.c.d` as IPv4-mapped (`::ffff:a.b.c.d`, not the IPv4-compatible `::a.b.c.d` RFC 4291 means)
 * and lets its bytes carry leading zeros or `0x`; a group of more than four hex digits, which it also
 * lets through, is refused here.
 */
export const parseIpv6 = (host: string): Option.Option<IpAddress> => {
  let text = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host
  const zone = text.indexOf("%")
  if (zone >= 0) {
    if (zone === text.length - 1) return Option.none()
    text = text.slice(0, zone)
  }
  const lastColon = text.lastIndexOf(":")
  if (lastColon < 0 || /[0-9a-f]{5}/i.test(text)) return Option.none()
  const tail = text.slice(lastColon + 1)
  if (tail.includes(".")) {
    if (!dottedQuad.test(tail)) return Option.none()
    const [a, b, c, d] = ipaddr.IPv4.parse(tail).octets
    text = `${text.slice(0, lastColon + 1)}${((a! << 8) | b!).toString(16)}:${((c! << 8) | d!).toString(16)}`
  }
  return ipaddr.IPv6.isValid(text)
    ? Option.some(ipv6(fromBytes(ipaddr.IPv6.parse(text).toByteArray())))
    : Option.none()
}

/** Parses a host as an IP literal of either family, in any spelling above; None for a host name. */
export const parseHost = (host: string): Option.Option<IpAddress> =>
  host.includes(":") || host.startsWith("[") ? parseIpv6(host) : parseIpv4(host)

/** The embedded IPv4 address of an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`), if it is one. */
export const unmapped = (address: IpAddress): Option.Option<IpAddress> =>
  address.family === 6 && address.value >> 32n === 0xffffn
    ? Option.some(ipv4(address.value & 0xffffffffn))
    : Option.none()

/** The canonical text of an address (ipaddr.js): dotted-quad, or RFC 5952 IPv6 (lower case, longest zero run as `::`). */
export const format = (address: IpAddress): string => ipaddr.fromByteArray(toBytes(address)).toString()

/** A CIDR range: the addresses sharing the first `prefix` bits with `base`. */
export interface Cidr {
  readonly base: IpAddress
  readonly prefix: number
}

/** Whether the range holds the address (never across families). */
export const contains = (range: Cidr, address: IpAddress): boolean => {
  if (range.base.family !== address.family) return false
  const shift = BigInt(bitsOf(address.family) - range.prefix)
  return range.base.value >> shift === address.value >> shift
}

/**
 * Parses `address/prefix` (the address in any spelling `parseHost` reads, the prefix as ipaddr.js's
 * `parseCIDR` reads and bounds it); None when malformed.
 */
export const parseCidr = (text: string): Option.Option<Cidr> => {
  const slash = text.lastIndexOf("/")
  if (slash < 0) return Option.none()
  return Option.flatMap(parseHost(text.slice(0, slash)), (base) => {
    try {
      const [, prefix] = ipaddr.parseCIDR(`${format(base)}${text.slice(slash)}`)
      return Option.some({ base, prefix })
    } catch {
      return Option.none()
    }
  })
}

/** A range from its text, for tables written in code (throws on a typo, at module load). */
export const cidr = (text: string): Cidr =>
  Option.getOrThrowWith(parseCidr(text), () => new Error(`not a CIDR range: ${text}`))
