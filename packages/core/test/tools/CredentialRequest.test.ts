import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck, ParseResult, Schema } from "effect"
import { CreateCredentialRequest } from "../../src/tools/CredentialRequest.js"

const decode = Schema.decodeUnknownEither(CreateCredentialRequest, { errors: "all" })

const issues = (input: unknown) => {
  const result = decode(input)
  return Either.isLeft(result)
    ? ParseResult.ArrayFormatter.formatErrorSync(result.left).map((i) => `${i.path.join(".")}: ${i.message}`)
    : []
}

describe("CreateCredentialRequest", () => {
  it("accepts each kind with what it needs", () => {
    expect(decode({ name: " CRM ", kind: "bearer", secret: "t0k" })).toEqual(
      Either.right({ name: "CRM", kind: "bearer", secret: "t0k" })
    )
    expect(Either.isRight(decode({ name: "Basic", kind: "basic", secret: "user:pass" }))).toBe(true)
    expect(
      Either.isRight(decode({ name: "Key", kind: "api_key_header", secret: "k", header_name: "X-Api-Key" }))
    ).toBe(true)
  })

  it("requires header_name for api_key_header and refuses it for the other kinds", () => {
    expect(issues({ name: "Key", kind: "api_key_header", secret: "k" })).toEqual([
      "header_name: header_name is required for kind api_key_header"
    ])
    expect(issues({ name: "Key", kind: "api_key_header", secret: "k", header_name: null })).toHaveLength(1)
    expect(issues({ name: "B", kind: "bearer", secret: "k", header_name: "X-Key" })[0]).toMatch(
      /^header_name: header_name is only used with kind api_key_header/
    )
    expect(
      issues({ name: "Key", kind: "api_key_header", secret: "k", header_name: "Bad Header" })[0]
    ).toMatch(/^header_name: /)
  })

  it("a basic secret is username:password; names and secrets are never empty", () => {
    expect(issues({ name: "Basic", kind: "basic", secret: "nocolon" })).toEqual([
      "secret: a basic credential's secret is username:password"
    ])
    expect(issues({ name: "  ", kind: "bearer", secret: "" }).map((i) => i.split(":")[0])).toEqual([
      "name",
      "secret"
    ])
  })

  it.prop(
    "api_key_header is valid exactly when a header name is given",
    [FastCheck.option(FastCheck.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,30}$/), { nil: undefined })],
    ([header]) => {
      const result = decode({
        name: "Key",
        kind: "api_key_header",
        secret: "k",
        ...(header === undefined ? {} : { header_name: header })
      })
      expect(Either.isRight(result)).toBe(header !== undefined)
    }
  )
})
