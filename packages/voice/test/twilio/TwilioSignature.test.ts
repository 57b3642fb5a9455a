import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import * as TwilioSignature from "../../src/twilio/TwilioSignature.js"

// Twilio's published example (docs, "Webhooks security")
const token = "12345"
const url = "https://mycompany.com/myapp.php?foo=1&bar=2"
const params: ReadonlyArray<readonly [string, string]> = [
  ["CallSid", "CA1234567890ABCDE"],
  ["Caller", "+12349013030"],
  ["Digits", "1234"],
  ["From", "+12349013030"],
  ["To", "+18005551212"]
]
const published = "0/KCTR6DLpKmkAf8muzZqo1nDgQ="

const refusal = (request: { url: string; params: typeof params; signature: string | null }, key = token) =>
  Effect.map(Effect.either(TwilioSignature.verify(key, request)), (result) =>
    Either.isLeft(result) ? result.left.reason : "valid"
  )

describe("TwilioSignature", () => {
  it("gives the published signature of Twilio's example", () => {
    expect(TwilioSignature.sign(token, url, params)).toBe(published)
  })

  it("sorts the parameters by name whatever order they came in", () => {
    expect(TwilioSignature.sign(token, url, [...params].reverse())).toBe(published)
    expect(TwilioSignature.signedText(url, [...params].reverse())).toBe(
      `${url}CallSidCA1234567890ABCDECaller+12349013030Digits1234From+12349013030To+18005551212`
    )
  })

  it("reads a form body's parameters as the signature covers them", () => {
    const body =
      "To=%2B18005551212&From=%2B12349013030&Caller=%2B12349013030&Digits=1234&CallSid=CA1234567890ABCDE"
    expect(TwilioSignature.sign(token, url, TwilioSignature.formParams(body))).toBe(published)
  })

  it.effect("accepts the published example and refuses any change to it", () =>
    Effect.gen(function* () {
      expect(yield* refusal({ url, params, signature: published })).toBe("valid")
      expect(yield* refusal({ url, params, signature: null })).toBe("missing")
      expect(yield* refusal({ url, params, signature: "" })).toBe("missing")
      expect(yield* refusal({ url, params, signature: published }, "54321")).toBe("mismatch")
      expect(yield* refusal({ url: url.replace("foo=1", "foo=2"), params, signature: published })).toBe(
        "mismatch"
      )
      expect(yield* refusal({ url: url.replace("https", "http"), params, signature: published })).toBe(
        "mismatch"
      )
      const changed = params.map(([name, value]): [string, string] => [
        name,
        name === "Digits" ? "1235" : value
      ])
      expect(yield* refusal({ url, params: changed, signature: published })).toBe("mismatch")
      expect(
        yield* refusal({ url, params: [...params, ["CallStatus", "completed"]], signature: published })
      ).toBe("mismatch")
      expect(yield* refusal({ url, params: params.slice(1), signature: published })).toBe("mismatch")
      expect(yield* refusal({ url, params, signature: published.slice(0, -1) })).toBe("mismatch")
      expect(yield* refusal({ url, params, signature: published.replace("0/", "1/") })).toBe("mismatch")
    })
  )
})
