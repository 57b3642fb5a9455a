import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck } from "effect"
import * as AllowList from "../../src/outbound/AllowList.js"
import * as Destination from "../../src/outbound/Destination.js"
import * as IpAddress from "../../src/outbound/IpAddress.js"

const none = AllowList.empty
const refusedRange = (result: Either.Either<unknown, Destination.Refusal>) =>
  Either.isLeft(result) && result.left._tag === "RefusedAddress" ? result.left.range : undefined

describe("Destination", () => {
  it("refuses the spellings of internal addresses seen in the issue, before any resolution", () => {
    const cases: Array<[string, string]> = [
      ["http://127.0.0.1:8080/hook", "loopback"],
      ["http://2130706433/hook", "loopback"],
      ["http://0x7f.1/hook", "loopback"],
      ["http://017700000001/", "loopback"],
      ["http://0x7F000001/", "loopback"],
      ["http://0x7f.0.0.0x1./", "loopback"],
      ["http://0xa9fea9fe/", "link_local"],
      ["http://012.0.0.1/", "private"],
      ["http://0177.0.0.1/", "loopback"],
      ["http://127.1/", "loopback"],
      ["http://0/", "this_network"],
      ["http://localhost:3000/", "loopback"],
      ["http://LOCALHOST./", "loopback"],
      ["http://api.localhost/", "loopback"],
      ["http://169.254.169.254/latest/meta-data", "link_local"],
      ["http://[::1]/", "loopback"],
      ["http://[::ffff:127.0.0.1]/", "ipv4_mapped"],
      ["http://[::ffff:7f00:1]/", "ipv4_mapped"],
      ["http://[::127.0.0.1]/", "ipv4_compatible"],
      ["https://10.0.0.5/", "private"],
      ["https://100.64.1.1/", "carrier_grade_nat"],
      ["https://[fd00::1]/", "unique_local"],
      ["https://[fe80::1]/", "link_local"],
      ["http://224.0.0.1/", "multicast"],
      ["http://255.255.255.255/", "broadcast"]
    ]
    for (const [url, range] of cases) expect(refusedRange(Destination.checkUrl(none, url)), url).toBe(range)
  })

  it("passes public addresses and names (names are judged again after resolution)", () => {
    for (const url of ["https://crm.example.com/hooks", "http://8.8.8.8/", "https://[2606:4700::1111]/x"]) {
      expect(Either.isRight(Destination.checkUrl(none, url)), url).toBe(true)
    }
    expect(Destination.checkUrl(none, "ftp://example.com/")).toEqual(
      Either.left({ _tag: "UnsupportedScheme", scheme: "ftp" })
    )
    expect(Destination.checkUrl(none, "not a url")).toEqual(Either.left({ _tag: "InvalidUrl" }))
  })

  it("lets the operator's allowed names, addresses and ranges through", () => {
    const allowed = Either.getOrThrow(AllowList.parse("127.0.0.1,10.0.0.0/8,crm.internal,localhost"))
    for (const url of [
      "http://127.0.0.1:9/",
      "http://2130706433/",
      "http://10.9.8.7/",
      "http://crm.internal/",
      "http://localhost/"
    ]) {
      expect(Either.isRight(Destination.checkUrl(allowed, url)), url).toBe(true)
    }
    expect(refusedRange(Destination.checkUrl(allowed, "http://127.0.0.2/"))).toBe("loopback")
    expect(refusedRange(Destination.checkUrl(allowed, "http://192.168.0.1/"))).toBe("private")
  })

  it("refuses a name when any address it resolves to is refused, unless the name is allowed", () => {
    const addresses = (...texts: Array<string>) =>
      texts.map((t) => Either.getOrThrow(Either.fromOption(IpAddress.parseHost(t), () => t)))
    expect(
      refusedRange(Destination.checkResolved(none, "evil.example", addresses("93.184.216.34", "10.0.0.1")))
    ).toBe("private")
    expect(refusedRange(Destination.checkResolved(none, "evil.example", addresses("127.0.0.1")))).toBe(
      "loopback"
    )
    expect(Either.isRight(Destination.checkResolved(none, "good.example", addresses("93.184.216.34")))).toBe(
      true
    )
    const named = Either.getOrThrow(AllowList.parse("crm.internal"))
    expect(Either.isRight(Destination.checkResolved(named, "CRM.internal", addresses("10.0.0.1")))).toBe(true)
  })

  it.prop(
    "every spelling of every loopback address is refused in a URL",
    [FastCheck.integer({ min: 0x7f000000, max: 0x7fffffff }), FastCheck.constantFrom(0, 1, 2, 3, 4)],
    ([value, form]) => {
      const host =
        form === 0
          ? String(value)
          : form === 1
            ? `0x${value.toString(16)}`
            : form === 2
              ? `0${value.toString(8)}`
              : form === 3
                ? `127.${value & 0xffffff}`
                : `[::ffff:${IpAddress.format(IpAddress.ipv4(value))}]`
      expect(Either.isLeft(Destination.checkUrl(none, `http://${host}:8080/`))).toBe(true)
    }
  )
})
