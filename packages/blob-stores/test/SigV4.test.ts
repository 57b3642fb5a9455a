import { describe, expect, it } from "@effect/vitest"
import { Effect, FastCheck, Redacted } from "effect"
import * as SigV4 from "../src/SigV4.js"

// AWS's aws-sig-v4-test-suite, case `get-vanilla`.
const vanilla: SigV4.SignableRequest = {
  method: "GET",
  path: "/",
  headers: { Host: "example.amazonaws.com", "X-Amz-Date": "20150830T123600Z" },
  payloadHash: SigV4.emptyPayloadHash
}
const scope: SigV4.Scope = {
  credentials: {
    accessKeyId: "AKIDEXAMPLE",
    secretAccessKey: Redacted.make("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
  },
  region: "us-east-1",
  service: "service",
  amzDate: "20150830T123600Z"
}

describe("SigV4", () => {
  it("builds get-vanilla's canonical request", () => {
    expect(SigV4.canonicalRequest(vanilla)).toBe(
      [
        "GET",
        "/",
        "",
        "host:example.amazonaws.com",
        "x-amz-date:20150830T123600Z",
        "",
        "host;x-amz-date",
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
      ].join("\n")
    )
  })

  it.effect("signs get-vanilla exactly as AWS's test suite does", () =>
    Effect.gen(function* () {
      expect(yield* SigV4.authorization(vanilla, scope)).toBe(
        "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, " +
          "SignedHeaders=host;x-amz-date, " +
          "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"
      )
    })
  )

  it.effect("hashes the empty payload to the published constant and changes with any signed part", () =>
    Effect.gen(function* () {
      expect(yield* SigV4.sha256Hex(new Uint8Array())).toBe(SigV4.emptyPayloadHash)
      const base = yield* SigV4.signature(vanilla, scope)
      const variants = [
        { ...vanilla, path: "/a" },
        { ...vanilla, method: "PUT" },
        { ...vanilla, headers: { ...vanilla.headers, Host: "example.amazonaws.org" } },
        { ...vanilla, query: [["a", "b"]] as const }
      ]
      for (const variant of variants) expect(yield* SigV4.signature(variant, scope)).not.toBe(base)
      const otherSecret = {
        ...scope,
        credentials: { ...scope.credentials, secretAccessKey: Redacted.make("x") }
      }
      expect(yield* SigV4.signature(vanilla, otherSecret)).not.toBe(base)
    })
  )

  it("formats x-amz-date and encodes paths per S3 (segments encoded, slashes kept)", () => {
    expect(SigV4.amzDate(Date.UTC(2015, 7, 30, 12, 36, 0, 123))).toBe("20150830T123600Z")
    expect(SigV4.encodePath("organizations/1/a b+c(1)*!'~ż.txt")).toBe(
      "organizations/1/a%20b%2Bc%281%29%2A%21%27~%C5%BC.txt"
    )
  })

  it.prop(
    "encodes any text to unreserved characters and escapes that decode back",
    [FastCheck.string({ unit: "grapheme" })],
    ([value]) => {
      const encoded = SigV4.uriEncode(value)
      expect(encoded).toMatch(/^(?:[A-Za-z0-9\-._~]|%[0-9A-F]{2})*$/)
      expect(decodeURIComponent(encoded)).toBe(value)
    }
  )
})
