import { Option } from "effect"

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

/**
 * Reads one part of a dotted IPv4 host as the WHATWG URL parser and `inet_aton` do: `0x`/`0X` starts hex
 * (nothing after it is 0), a leading `0` starts octal, anything else is decimal.
 */
const ipv4Number = (part: string): bigint | undefined => {
  if (part === "") return undefined
  if (/^0x[0-9a-f]*$/i.test(part)) return part.length === 2 ? 0n : BigInt(`0x${part.slice(2)}`)
  if (/^0[0-7]+$/.test(part)) return BigInt(`0o${part.slice(1)}`)
  if (/^(0|[1-9][0-9]*)$/.test(part)) return BigInt(part)
  return undefined
}

/** Whether a host "ends in a number" (WHATWG): then it must be an IPv4 address or the URL is invalid. */
export const endsInNumber = (host: string): boolean => {
  const parts = host.split(".")
  if (parts[parts.length - 1] === "") {
    if (parts.length === 1) return false
    parts.pop()
  }
  const last = parts[parts.length - 1]!
  return /^[0-9]+$/.test(last) || ipv4Number(last) !== undefined
}

/**
 * Parses an IPv4 host in every spelling the WHATWG URL parser and `inet_aton` accept: one to four parts,
 * each decimal, octal (`0177`) or hex (`0x7f`), the last filling the remaining bytes (`127.1`,
 * `2130706433`, `0x7f.1`, `0`), an optional trailing dot. None when it is not such an address.
 */
export const parseIpv4 = (host: string): Option.Option<IpAddress> => {
  const parts = host.split(".")
  if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop()
  if (parts.length === 0 || parts.length > 4) return Option.none()
  const numbers: Array<bigint> = []
  for (const part of parts) {
    const n = ipv4Number(part)
    if (n === undefined) return Option.none()
    numbers.push(n)
  }
  const last = numbers.pop()!
  if (numbers.some((n) => n > 255n)) return Option.none()
  if (last >= 256n ** BigInt(5 - parts.length)) return Option.none()
  const value = numbers.reduce((sum, n, i) => sum + n * 256n ** BigInt(3 - i), last)
  return Option.some(ipv4(value))
}

/** A strict dotted-quad (four decimal bytes, no leading zeros), the only IPv4 form inside IPv6. */
const parseDottedQuad = (text: string): bigint | undefined => {
  const parts = text.split(".")
  if (parts.length !== 4) return undefined
  let value = 0n
  for (const part of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part)) return undefined
    const n = BigInt(part)
    if (n > 255n) return undefined
    value = value * 256n + n
  }
  return value
}

/** Parses the hex groups of one side of `::` into 16-bit pieces (the last may be a dotted IPv4). */
const ipv6Pieces = (side: string, last: boolean): Array<bigint> | undefined => {
  if (side === "") return []
  const groups = side.split(":")
  const pieces: Array<bigint> = []
  for (let i = 0; i < groups.length; i++) {
    const group = groups[i]!
    if (last && i === groups.length - 1 && group.includes(".")) {
      const v4 = parseDottedQuad(group)
      if (v4 === undefined) return undefined
      pieces.push(v4 >> 16n, v4 & 0xffffn)
    } else if (/^[0-9a-f]{1,4}$/i.test(group)) {
      pieces.push(BigInt(`0x${group}`))
    } else {
      return undefined
    }
  }
  return pieces
}

/**
 * Parses an IPv6 address, with or without brackets, with or without a zone id (`fe80::1%eth0`,
 * `%25eth0` as in a URL), with `::` compression and a trailing dotted IPv4 (`::ffff:127.0.0.1`).
 */
export const parseIpv6 = (host: string): Option.Option<IpAddress> => {
  let text = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host
  const zone = text.indexOf("%")
  if (zone >= 0) {
    if (zone === text.length - 1) return Option.none()
    text = text.slice(0, zone)
  }
  if (!text.includes(":")) return Option.none()
  const halves = text.split("::")
  if (halves.length > 2) return Option.none()
  let pieces: Array<bigint>
  if (halves.length === 1) {
    const all = ipv6Pieces(text, true)
    if (all === undefined || all.length !== 8) return Option.none()
    pieces = all
  } else {
    const head = ipv6Pieces(halves[0]!, false)
    const tail = ipv6Pieces(halves[1]!, true)
    if (head === undefined || tail === undefined || head.length + tail.length > 7) return Option.none()
    pieces = [...head, ...Array<bigint>(8 - head.length - tail.length).fill(0n), ...tail]
  }
  return Option.some(ipv6(pieces.reduce((value, piece) => (value << 16n) | piece, 0n)))
}

/** Parses a host as an IP literal of either family, in any spelling above; None for a host name. */
export const parseHost = (host: string): Option.Option<IpAddress> =>
  host.includes(":") || host.startsWith("[") ? parseIpv6(host) : parseIpv4(host)

/** The embedded IPv4 address of an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`), if it is one. */
export const unmapped = (address: IpAddress): Option.Option<IpAddress> =>
  address.family === 6 && address.value >> 32n === 0xffffn
    ? Option.some(ipv4(address.value & 0xffffffffn))
    : Option.none()

/** The canonical text of an address: dotted-quad, or RFC 5952 IPv6 (lower case, longest zero run as `::`). */
export const format = (address: IpAddress): string => {
  if (address.family === 4) {
    return [24n, 16n, 8n, 0n].map((shift) => String((address.value >> shift) & 255n)).join(".")
  }
  const pieces = Array.from({ length: 8 }, (_, i) =>
    Number((address.value >> BigInt(112 - 16 * i)) & 0xffffn)
  )
  let bestStart = -1
  let bestLength = 1
  for (let i = 0; i < 8;) {
    if (pieces[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < 8 && pieces[j] === 0) j++
    if (j - i > bestLength) {
      bestStart = i
      bestLength = j - i
    }
    i = j
  }
  const hex = (from: number, to: number) =>
    pieces
      .slice(from, to)
      .map((p) => p.toString(16))
      .join(":")
  return bestStart < 0 ? hex(0, 8) : `${hex(0, bestStart)}::${hex(bestStart + bestLength, 8)}`
}

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

/** Parses `address/prefix` (the address in any spelling `parseHost` reads); None when malformed. */
export const parseCidr = (text: string): Option.Option<Cidr> => {
  const slash = text.lastIndexOf("/")
  if (slash < 0) return Option.none()
  const prefixText = text.slice(slash + 1)
  if (!/^[0-9]{1,3}$/.test(prefixText)) return Option.none()
  const prefix = Number(prefixText)
  return Option.flatMap(parseHost(text.slice(0, slash)), (base) =>
    prefix <= bitsOf(base.family) ? Option.some({ base, prefix }) : Option.none()
  )
}

/** A range from its text, for tables written in code (throws on a typo, at module load). */
export const cidr = (text: string): Cidr =>
  Option.getOrThrowWith(parseCidr(text), () => new Error(`not a CIDR range: ${text}`))
