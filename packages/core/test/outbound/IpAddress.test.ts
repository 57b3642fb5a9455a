import { describe, expect, it } from "@effect/vitest"
import { FastCheck, Option } from "effect"
import * as IpAddress from "../../src/outbound/IpAddress.js"

const v4 = (text: string) => Option.map(IpAddress.parseIpv4(text), IpAddress.format)
const v6 = (text: string) => Option.map(IpAddress.parseIpv6(text), IpAddress.format)
const host = (text: string) => Option.map(IpAddress.parseHost(text), IpAddress.format)

const uint32 = FastCheck.integer({ min: 0, max: 0xffffffff })
const byte = (value: number, shift: number) => (value >>> shift) & 255

/** Writes one number in decimal, octal (leading 0) or hex (0x/0X), as URL parsers and inet_aton read them. */
const spell = (n: number, radix: 0 | 1 | 2 | 3) =>
  radix === 0
    ? String(n)
    : radix === 1
      ? `0${n.toString(8)}`
      : radix === 2
        ? `0x${n.toString(16)}`
        : `0X${n.toString(16).toUpperCase()}`

/** Any of the one- to four-part spellings of a 32-bit address, each part in any radix. */
const spelling = FastCheck.tuple(
  uint32,
  FastCheck.integer({ min: 1, max: 4 }),
  FastCheck.array(FastCheck.constantFrom<0 | 1 | 2 | 3>(0, 1, 2, 3), { minLength: 4, maxLength: 4 }),
  FastCheck.boolean()
).map(([value, parts, radixes, trailingDot]) => {
  const numbers =
    parts === 1
      ? [value]
      : parts === 2
        ? [byte(value, 24), value & 0xffffff]
        : parts === 3
          ? [byte(value, 24), byte(value, 16), value & 0xffff]
          : [byte(value, 24), byte(value, 16), byte(value, 8), byte(value, 0)]
  const text = numbers.map((n, i) => spell(n, radixes[i]!)).join(".")
  return { value, text: trailingDot ? `${text}.` : text }
})

const uint128 = FastCheck.bigInt({ min: 0n, max: (1n << 128n) - 1n })

describe("IpAddress", () => {
  it("reads every IPv4 spelling the URL parser and inet_aton accept", () => {
    for (const text of [
      "127.0.0.1",
      "2130706433",
      "0x7f.1",
      "0x7F000001",
      "0177.0.0.1",
      "0177.1",
      "127.1",
      "127.0.1",
      "017700000001",
      "0x7f.0.0.0x1",
      "127.0.0.1."
    ]) {
      expect(v4(text), text).toEqual(Option.some("127.0.0.1"))
    }
    expect(v4("0")).toEqual(Option.some("0.0.0.0"))
    expect(v4("0x")).toEqual(Option.some("0.0.0.0"))
    expect(v4("169.254.169.254")).toEqual(Option.some("169.254.169.254"))
    expect(v4("0xa9fea9fe")).toEqual(Option.some("169.254.169.254"))
    expect(v4("4294967295")).toEqual(Option.some("255.255.255.255"))
  })

  it("reads no host name, and no number out of range, as an address", () => {
    for (const text of [
      "example.com",
      "4294967296",
      "256.0.0.1",
      "1.2.3.4.5",
      "08.0.0.1",
      "0x1g",
      "1..2",
      "",
      "127.0.0.256",
      "1.16777216",
      "localhost"
    ]) {
      expect(IpAddress.parseIpv4(text), text).toEqual(Option.none())
    }
  })

  it("reads IPv6 with compression, brackets, zone ids and embedded IPv4", () => {
    expect(v6("::1")).toEqual(Option.some("::1"))
    expect(v6("[::1]")).toEqual(Option.some("::1"))
    expect(v6("0:0:0:0:0:0:0:1")).toEqual(Option.some("::1"))
    expect(v6("::")).toEqual(Option.some("::"))
    expect(v6("::ffff:127.0.0.1")).toEqual(Option.some("::ffff:7f00:1"))
    expect(v6("[::ffff:7f00:1]")).toEqual(Option.some("::ffff:7f00:1"))
    expect(v6("::127.0.0.1")).toEqual(Option.some("::7f00:1"))
    expect(v6("fe80::1%eth0")).toEqual(Option.some("fe80::1"))
    expect(v6("[fe80::1%25en0]")).toEqual(Option.some("fe80::1"))
    expect(v6("2001:DB8::A")).toEqual(Option.some("2001:db8::a"))
    expect(v6("1:2:3:4:5:6:7::")).toEqual(Option.some("1:2:3:4:5:6:7:0"))
    for (const text of [
      "1::2::3",
      "1:2:3:4:5:6:7:8:9",
      "::ffff:127.1",
      "::ffff:0127.0.0.1",
      "12345::",
      "fe80::1%",
      ":1"
    ]) {
      expect(IpAddress.parseIpv6(text), text).toEqual(Option.none())
    }
  })

  it("reads either family from a host", () => {
    expect(host("[::ffff:127.0.0.1]")).toEqual(Option.some("::ffff:7f00:1"))
    expect(host("0x7f.1")).toEqual(Option.some("127.0.0.1"))
    expect(host("crm.internal")).toEqual(Option.none())
  })

  it("reads embedded IPv4 as RFC 4291 writes it, where ipaddr.js alone would not", () => {
    // ipaddr.js reads `::a.b.c.d` as `::ffff:a.b.c.d`; RFC 4291 (and the URL parser) mean `::a.b.c.d`
    expect(v6("::127.0.0.1")).toEqual(Option.some("::7f00:1"))
    expect(new URL("http://[::127.0.0.1]/").hostname).toBe("[::7f00:1]")
    expect(v6("::ffff:8.8.8.8")).toEqual(Option.some("::ffff:808:808"))
    expect(v6("64:ff9b::192.0.2.33")).toEqual(Option.some("64:ff9b::c000:221"))
    expect(v6("1:2:3:4:5:6:1.2.3.4")).toEqual(Option.some("1:2:3:4:5:6:102:304"))
    // bytes with a leading zero or in hex, and groups of five hex digits: the URL parser refuses them too
    for (const text of [
      "::ffff:0x7f.0.0.1",
      "::ffff:127.0.0.01",
      "::ffff:1.2.3.4.5",
      "00001::",
      "::1:2:3:4:5:6:7:8"
    ]) {
      expect(IpAddress.parseIpv6(text), text).toEqual(Option.none())
      expect(URL.canParse(`http://[${text}]/`), text).toBe(false)
    }
  })

  it("drops any zone id, in either spelling, and needs one after a `%`", () => {
    for (const text of ["fe80::1%eth0", "fe80::1%25en0", "[fe80::1%eth0.100]", "fe80::1%en-0", "fe80::1%1"]) {
      expect(v6(text), text).toEqual(Option.some("fe80::1"))
    }
    expect(IpAddress.parseIpv6("fe80::1%")).toEqual(Option.none())
    expect(IpAddress.parseIpv6("%eth0")).toEqual(Option.none())
  })

  it("reads a range's address in any spelling and bounds its prefix by the family", () => {
    const range = (text: string) =>
      Option.map(IpAddress.parseCidr(text), ({ base, prefix }) => `${IpAddress.format(base)}/${prefix}`)
    expect(range("10.0.0.0/8")).toEqual(Option.some("10.0.0.0/8"))
    expect(range("0x7f.1/8")).toEqual(Option.some("127.0.0.1/8"))
    expect(range("017700000001/32")).toEqual(Option.some("127.0.0.1/32"))
    expect(range("0/0")).toEqual(Option.some("0.0.0.0/0"))
    expect(range("::ffff:127.0.0.1/104")).toEqual(Option.some("::ffff:7f00:1/104"))
    expect(range("fd00::/8")).toEqual(Option.some("fd00::/8"))
    expect(range("fe80::%eth0/10")).toEqual(Option.some("fe80::/10"))
    expect(range("::/128")).toEqual(Option.some("::/128"))
    const loopback = Option.getOrThrow(IpAddress.parseCidr("0x7f.0.0.0/8"))
    expect(IpAddress.contains(loopback, Option.getOrThrow(IpAddress.parseHost("0177.255.255.254")))).toBe(
      true
    )
    expect(IpAddress.contains(loopback, Option.getOrThrow(IpAddress.parseHost("::ffff:7f00:1")))).toBe(false)
    for (const text of ["0x7f.1/33", "::ffff:7f00:1/129", "10.0.0.0/-1", "10.0.0.0/ 8", "10.0.0.0/8/8"]) {
      expect(IpAddress.parseCidr(text), text).toEqual(Option.none())
    }
  })

  it.prop("every IPv4 spelling reads as the WHATWG URL parser reads it", [spelling], ([{ text, value }]) => {
    expect(v4(text)).toEqual(Option.some(IpAddress.format(IpAddress.ipv4(value))))
    expect(new URL(`http://${text}/`).hostname).toBe(IpAddress.format(IpAddress.ipv4(value)))
  })

  it.prop("IPv6 text round-trips and matches the URL parser's canonical form", [uint128], ([value]) => {
    const text = IpAddress.format(IpAddress.ipv6(value))
    expect(IpAddress.parseIpv6(text)).toEqual(Option.some(IpAddress.ipv6(value)))
    expect(IpAddress.parseIpv6(`[${text}]`)).toEqual(Option.some(IpAddress.ipv6(value)))
    expect(new URL(`http://[${text}]/`).hostname).toBe(`[${text}]`)
  })

  it.prop("an IPv4-mapped address carries its IPv4 address", [uint32], ([value]) => {
    const dotted = IpAddress.format(IpAddress.ipv4(value))
    const mapped = IpAddress.parseIpv6(`::ffff:${dotted}`)
    expect(Option.flatMap(mapped, IpAddress.unmapped)).toEqual(Option.some(IpAddress.ipv4(value)))
  })

  it.prop(
    "a CIDR range holds exactly the addresses sharing its prefix",
    [uint32, uint32, FastCheck.integer({ min: 0, max: 32 })],
    ([base, other, prefix]) => {
      const range = Option.getOrThrow(
        IpAddress.parseCidr(`${IpAddress.format(IpAddress.ipv4(base))}/${prefix}`)
      )
      const shift = 32 - prefix
      const same = prefix === 0 || Math.floor(base / 2 ** shift) === Math.floor(other / 2 ** shift)
      expect(IpAddress.contains(range, IpAddress.ipv4(other))).toBe(same)
      expect(IpAddress.contains(range, IpAddress.ipv4(base))).toBe(true)
    }
  )

  it("refuses malformed ranges", () => {
    for (const text of ["10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/x", "example.com/8", "10.0.0.0"]) {
      expect(IpAddress.parseCidr(text), text).toEqual(Option.none())
    }
  })
})
