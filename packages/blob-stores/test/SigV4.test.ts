import { describe, expect, it } from "@effect/vitest"
import { Effect, FastCheck, Redacted } from "effect"
import * as SigV4 from "../src/SigV4.js"
import * as SignatureCheck from "./SignatureCheck.js"

/** A key pair in a region, for a service, at an instant (all in us-east-1 below). */
const scope = (accessKeyId: string, secret: string, service: string, amzDate: string): SigV4.Scope => ({
  credentials: { accessKeyId, secretAccessKey: Redacted.make(secret) },
  region: "us-east-1",
  service,
  amzDate
})

// AWS's SigV4 test suite (aws-sig-v4-test-suite): its key, scope and instant.
const suite = scope("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "service", "20150830T123600Z")

// The S3 documentation's examples ("Signature calculations for the Authorization header").
const s3Docs = scope(
  "AKIAIOSFODNN7EXAMPLE",
  "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  "s3",
  "20130524T000000Z"
)
const getObjectWithRange: SigV4.SignableRequest = {
  method: "GET",
  url: "https://examplebucket.s3.amazonaws.com/test.txt",
  headers: { Range: "bytes=0-9", "x-amz-content-sha256": SigV4.emptyPayloadHash }
}
const getObjectAuthorization =
  "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, " +
  "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, " +
  "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"

const accepted = (scope: SigV4.Scope): SignatureCheck.Accepted => ({
  accessKeyId: scope.credentials.accessKeyId,
  secretAccessKey: Redacted.value(scope.credentials.secretAccessKey),
  region: scope.region,
  service: scope.service
})

describe("SigV4 (aws4fetch) against AWS's published vectors", () => {
  it.effect("signs the test suite's get-vanilla", () =>
    Effect.gen(function* () {
      const headers = yield* SigV4.sign({ method: "GET", url: "https://example.amazonaws.com/" }, suite)
      expect(headers["x-amz-date"]).toBe("20150830T123600Z")
      expect(headers["authorization"]).toBe(
        "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, " +
          "SignedHeaders=host;x-amz-date, " +
          "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"
      )
    })
  )

  it.effect("signs the test suite's get-vanilla-query-order-key-case (query sorted by name)", () =>
    Effect.gen(function* () {
      const headers = yield* SigV4.sign(
        { method: "GET", url: "https://example.amazonaws.com/?Param2=value2&Param1=value1" },
        suite
      )
      expect(headers["authorization"]).toMatch(
        /, Signature=b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500$/
      )
    })
  )

  it.effect("signs the S3 documentation's GET object with a Range header", () =>
    Effect.gen(function* () {
      const headers = yield* SigV4.sign(getObjectWithRange, s3Docs)
      expect(headers["authorization"]).toBe(getObjectAuthorization)
      expect(headers["range"]).toBe("bytes=0-9")
    })
  )
})

/** The S3 documentation's GET object as S3 receives it. */
const getObjectReceived: SignatureCheck.ReceivedRequest = {
  method: "GET",
  target: "/test.txt",
  headers: {
    host: "examplebucket.s3.amazonaws.com",
    range: "bytes=0-9",
    "x-amz-content-sha256": SigV4.emptyPayloadHash,
    "x-amz-date": "20130524T000000Z",
    authorization: getObjectAuthorization
  },
  body: new Uint8Array()
}

describe("the S3 emulator's signature check, against the same vectors", () => {
  it("builds the S3 documentation's canonical request", () => {
    expect(
      SignatureCheck.canonicalRequest(getObjectReceived, [
        "host",
        "range",
        "x-amz-content-sha256",
        "x-amz-date"
      ])
    ).toBe(
      [
        "GET",
        "/test.txt",
        "",
        "host:examplebucket.s3.amazonaws.com",
        "range:bytes=0-9",
        `x-amz-content-sha256:${SigV4.emptyPayloadHash}`,
        "x-amz-date:20130524T000000Z",
        "",
        "host;range;x-amz-content-sha256;x-amz-date",
        SigV4.emptyPayloadHash
      ].join("\n")
    )
  })

  it("accepts the published signatures and nothing changed from them", () => {
    const getObject = getObjectReceived
    expect(SignatureCheck.verify(getObject, accepted(s3Docs))).toBe(true)
    const vanilla: SignatureCheck.ReceivedRequest = {
      method: "GET",
      target: "/?Param2=value2&Param1=value1",
      headers: {
        host: "example.amazonaws.com",
        "x-amz-date": "20150830T123600Z",
        authorization:
          "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, " +
          "SignedHeaders=host;x-amz-date, " +
          "Signature=b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"
      },
      body: new Uint8Array()
    }
    expect(SignatureCheck.verify(vanilla, accepted(suite))).toBe(true)
    for (const changed of [
      { ...getObject, method: "HEAD" },
      { ...getObject, target: "/test.txt2" },
      { ...getObject, headers: { ...getObject.headers, range: "bytes=0-10" } },
      { ...getObject, headers: { ...getObject.headers, "x-amz-date": "20130524T000001Z" } }
    ]) {
      expect(SignatureCheck.verify(changed, accepted(s3Docs))).toBe(false)
    }
    expect(SignatureCheck.verify(getObject, { ...accepted(s3Docs), secretAccessKey: "other" })).toBe(false)
    expect(SignatureCheck.verify(getObject, { ...accepted(s3Docs), region: "eu-central-1" })).toBe(false)
  })
})

describe("SigV4", () => {
  it.effect("hashes the empty payload to the published constant; any signed part changes the signature", () =>
    Effect.gen(function* () {
      expect(yield* SigV4.sha256Hex(new Uint8Array())).toBe(SigV4.emptyPayloadHash)
      expect(yield* SigV4.sha256Hex("Welcome to Amazon S3.")).toBe(
        "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072"
      )
      const signatureOf = (request: SigV4.SignableRequest, scope = s3Docs) =>
        Effect.map(SigV4.sign(request, scope), (headers) => headers["authorization"]!.slice(-64))
      const base = yield* signatureOf(getObjectWithRange)
      const variants: Array<SigV4.SignableRequest> = [
        { ...getObjectWithRange, url: "https://examplebucket.s3.amazonaws.com/test.txt2" },
        { ...getObjectWithRange, method: "HEAD" },
        { ...getObjectWithRange, url: "https://examplebucket.s3.amazonaws.org/test.txt" },
        { ...getObjectWithRange, url: "https://examplebucket.s3.amazonaws.com/test.txt?a=b" },
        { ...getObjectWithRange, headers: { ...getObjectWithRange.headers, "content-type": "text/plain" } }
      ]
      for (const variant of variants) expect(yield* signatureOf(variant)).not.toBe(base)
      const otherSecret = {
        ...s3Docs,
        credentials: { ...s3Docs.credentials, secretAccessKey: Redacted.make("x") }
      }
      expect(yield* signatureOf(getObjectWithRange, otherSecret)).not.toBe(base)
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

  it.effect.prop(
    "what it signs for any S3 key and content type, the emulator's own check accepts as sent",
    [
      // keys as the stores take them: no empty, `.` or `..` segment (a URL would normalize those away)
      FastCheck.array(FastCheck.string({ unit: "grapheme", minLength: 1, maxLength: 12 }), {
        minLength: 1,
        maxLength: 3
      }).filter((segments) =>
        segments
          .join("/")
          .split("/")
          .every((s) => s !== "" && s !== "." && s !== "..")
      ),
      FastCheck.stringMatching(/^[a-z]+\/[a-z0-9.+-]{1,20}$/),
      FastCheck.constantFrom("PUT", "GET", "HEAD", "DELETE")
    ],
    ([segments, contentType, method]) =>
      Effect.gen(function* () {
        const path = `/bucket/${SigV4.encodePath(segments.join("/"))}`
        const headers = yield* SigV4.sign(
          {
            method,
            url: `http://127.0.0.1:9000${path}`,
            headers: { "content-type": contentType, "x-amz-content-sha256": SigV4.emptyPayloadHash }
          },
          s3Docs
        )
        const received = {
          method,
          target: path,
          headers: { ...headers, host: "127.0.0.1:9000" },
          body: new Uint8Array()
        }
        expect(SignatureCheck.verify(received, accepted(s3Docs))).toBe(true)
      })
  )
})
