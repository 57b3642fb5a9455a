import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck, Option } from "effect"
import * as AllowList from "../../src/outbound/AllowList.js"
import * as IpAddress from "../../src/outbound/IpAddress.js"

const address = (text: string) => Option.getOrThrow(IpAddress.parseHost(text))
const list = (text: string) => Either.getOrThrow(AllowList.parse(text))

describe("AllowList", () => {
  it("reads names, addresses and ranges, comma-separated, blanks ignored", () => {
    const allowed = list(" 127.0.0.1, 10.0.0.0/8 ,CRM.internal.,[::1],fd00::/8,,")
    expect([...allowed.names]).toEqual(["crm.internal"])
    expect(AllowList.allowsName(allowed, "crm.INTERNAL")).toBe(true)
    expect(AllowList.allowsName(allowed, "other.internal")).toBe(false)
    expect(AllowList.allowsAddress(allowed, address("127.0.0.1"))).toBe(true)
    expect(AllowList.allowsAddress(allowed, address("127.0.0.2"))).toBe(false)
    expect(AllowList.allowsAddress(allowed, address("10.200.0.1"))).toBe(true)
    expect(AllowList.allowsAddress(allowed, address("::ffff:10.1.1.1"))).toBe(true)
    expect(AllowList.allowsAddress(allowed, address("::1"))).toBe(true)
    expect(AllowList.allowsAddress(allowed, address("fd12::1"))).toBe(true)
    expect(AllowList.allowsAddress(allowed, address("11.0.0.1"))).toBe(false)
    expect(list("")).toEqual(AllowList.empty)
    const spelled = list("0x7f.1,012.0.0.0/8,[::ffff:192.168.0.0]/112")
    expect(AllowList.allowsAddress(spelled, address("127.0.0.1"))).toBe(true)
    expect(AllowList.allowsAddress(spelled, address("10.255.0.1"))).toBe(true)
    expect(AllowList.allowsAddress(spelled, address("::ffff:c0a8:304"))).toBe(true)
    expect(AllowList.allowsAddress(spelled, address("192.169.0.1"))).toBe(false)
  })

  it("refuses an entry that is neither", () => {
    expect(AllowList.parse("10.0.0.0/33")).toEqual(Either.left('"10.0.0.0/33" is not a CIDR range'))
    expect(Either.isLeft(AllowList.parse("http://crm.internal"))).toBe(true)
    expect(Either.isLeft(AllowList.parse("crm internal"))).toBe(true)
    expect(Either.isLeft(AllowList.parse("*.internal"))).toBe(true)
  })

  it.prop(
    "a range lets through every address inside it and none outside",
    [
      FastCheck.integer({ min: 0, max: 0xffffffff }),
      FastCheck.integer({ min: 0, max: 0xffffffff }),
      FastCheck.integer({ min: 1, max: 32 })
    ],
    ([base, other, prefix]) => {
      const range = `${IpAddress.format(IpAddress.ipv4(base))}/${prefix}`
      const shift = 32 - prefix
      const inside = Math.floor(base / 2 ** shift) === Math.floor(other / 2 ** shift)
      expect(AllowList.allowsAddress(list(range), IpAddress.ipv4(other))).toBe(inside)
    }
  )
})
