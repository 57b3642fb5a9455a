import { describe, expect, it } from "@effect/vitest"
import { FastCheck, Option } from "effect"
import * as IpAddress from "../../src/outbound/IpAddress.js"
import * as RefusedRanges from "../../src/outbound/RefusedRanges.js"

const refusal = (text: string) =>
  Option.map(RefusedRanges.classify(Option.getOrThrow(IpAddress.parseHost(text))), (r) => r.name)

const uint32 = FastCheck.integer({ min: 0, max: 0xffffffff })
/** An address inside the range, at a random offset. */
const inside = (range: IpAddress.Cidr, offset: bigint): IpAddress.IpAddress => {
  const bits = BigInt(IpAddress.bitsOf(range.base.family) - range.prefix)
  const mask = (1n << bits) - 1n
  return { family: range.base.family, value: (range.base.value & ~mask) | (offset & mask) }
}

describe("RefusedRanges", () => {
  it("refuses the special-purpose IPv4 ranges", () => {
    expect(refusal("127.0.0.1")).toEqual(Option.some("loopback"))
    expect(refusal("127.255.255.254")).toEqual(Option.some("loopback"))
    expect(refusal("10.1.2.3")).toEqual(Option.some("private"))
    expect(refusal("172.16.0.1")).toEqual(Option.some("private"))
    expect(refusal("172.31.255.255")).toEqual(Option.some("private"))
    expect(refusal("192.168.1.1")).toEqual(Option.some("private"))
    expect(refusal("100.64.0.1")).toEqual(Option.some("carrier_grade_nat"))
    expect(refusal("100.127.255.255")).toEqual(Option.some("carrier_grade_nat"))
    expect(refusal("169.254.169.254")).toEqual(Option.some("link_local"))
    expect(refusal("0.0.0.0")).toEqual(Option.some("this_network"))
    expect(refusal("0.1.2.3")).toEqual(Option.some("this_network"))
    expect(refusal("224.0.0.1")).toEqual(Option.some("multicast"))
    expect(refusal("239.255.255.250")).toEqual(Option.some("multicast"))
    expect(refusal("255.255.255.255")).toEqual(Option.some("broadcast"))
    expect(refusal("240.0.0.1")).toEqual(Option.some("reserved"))
    expect(refusal("192.0.0.170")).toEqual(Option.some("ietf_protocol_assignments"))
    expect(refusal("192.0.2.1")).toEqual(Option.some("documentation"))
    expect(refusal("198.18.0.1")).toEqual(Option.some("benchmarking"))
  })

  it("refuses the special-purpose IPv6 ranges and every embedded-IPv4 form", () => {
    expect(refusal("::")).toEqual(Option.some("unspecified"))
    expect(refusal("::1")).toEqual(Option.some("loopback"))
    expect(refusal("::ffff:127.0.0.1")).toEqual(Option.some("ipv4_mapped"))
    expect(refusal("::ffff:7f00:1")).toEqual(Option.some("ipv4_mapped"))
    expect(refusal("::ffff:8.8.8.8")).toEqual(Option.some("ipv4_mapped"))
    expect(refusal("::127.0.0.1")).toEqual(Option.some("ipv4_compatible"))
    expect(refusal("64:ff9b::7f00:1")).toEqual(Option.some("nat64"))
    expect(refusal("fe80::1%eth0")).toEqual(Option.some("link_local"))
    expect(refusal("[fe80::1%25en0]")).toEqual(Option.some("link_local"))
    expect(refusal("0x7f.1")).toEqual(Option.some("loopback"))
    expect(refusal("017700000001")).toEqual(Option.some("loopback"))
    expect(refusal("fc00::1")).toEqual(Option.some("unique_local"))
    expect(refusal("fd12:3456::1")).toEqual(Option.some("unique_local"))
    expect(refusal("ff02::1")).toEqual(Option.some("multicast"))
    expect(refusal("2001:db8::1")).toEqual(Option.some("documentation"))
    expect(refusal("2002:7f00:1::1")).toEqual(Option.some("6to4"))
    expect(refusal("2001:0:4136:e378::1")).toEqual(Option.some("ietf_protocol_assignments"))
    expect(refusal("100::1")).toEqual(Option.some("discard_only"))
    expect(refusal("4000::1")).toEqual(Option.some("reserved"))
  })

  it("lets public addresses through", () => {
    for (const text of [
      "8.8.8.8",
      "1.1.1.1",
      "93.184.216.34",
      "172.32.0.1",
      "100.128.0.1",
      "2606:4700:4700::1111",
      "2a00:1450::1"
    ]) {
      expect(refusal(text), text).toEqual(Option.none())
    }
  })

  it.prop(
    "every address inside a refused range is refused, in IPv4 and in its mapped and compatible IPv6 forms",
    [FastCheck.constantFrom(...RefusedRanges.ipv4Ranges), uint32],
    ([range, offset]) => {
      const address = inside(range.range, BigInt(offset))
      expect(Option.isSome(RefusedRanges.classify(address))).toBe(true)
      expect(Option.isSome(RefusedRanges.classify(IpAddress.ipv6((0xffffn << 32n) | address.value)))).toBe(
        true
      )
      expect(Option.isSome(RefusedRanges.classify(IpAddress.ipv6(address.value)))).toBe(true)
    }
  )

  it.prop(
    "every IPv6 address inside a refused range, or outside global unicast, is refused",
    [
      FastCheck.constantFrom(...RefusedRanges.ipv6Ranges),
      FastCheck.bigInt({ min: 0n, max: (1n << 128n) - 1n })
    ],
    ([range, offset]) => {
      expect(Option.isSome(RefusedRanges.classify(inside(range.range, offset)))).toBe(true)
      const outside = offset & ((1n << 125n) - 1n) // top three bits 000: never 2000::/3
      expect(Option.isSome(RefusedRanges.classify(IpAddress.ipv6(outside)))).toBe(true)
    }
  )
})
