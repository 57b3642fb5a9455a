import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as ConfigSecrets from "../../src/integrations/ConfigSecrets.js"

describe("ConfigSecrets", () => {
  it("recognises secret keys in any case and with any separator", () => {
    for (const key of [
      "token",
      "access_token",
      "refreshToken",
      "client_secret",
      "Password",
      "api_key",
      "apiKey",
      "API-KEY",
      "x_apikey"
    ]) {
      expect(ConfigSecrets.isSecretKey(key), key).toBe(true)
    }
    for (const key of ["calendar_id", "base_url", "api_version", "key", "owner_email"]) {
      expect(ConfigSecrets.isSecretKey(key), key).toBe(false)
    }
    for (const key of ["calendar_id", "portalId", "base_url", "api_version", "owner_email", "Region"]) {
      expect(ConfigSecrets.isPublicKey(key), key).toBe(true)
    }
    // a key is public only when known to be: unknown names and secret names are not
    for (const key of ["key", "authorization", "note", "header", "access_token", "api_key_id"]) {
      expect(ConfigSecrets.isPublicKey(key), key).toBe(false)
    }
  })

  it("shows only values known not to be secret: null, booleans, and plain values under public keys", () => {
    expect(
      ConfigSecrets.masked({
        authorization: "Bearer sk_live_123",
        headers: { Authorization: "Basic dXNlcjpwYXNz", "X-Custom": "abc" },
        base_url: "https://crm.example.com/api",
        webhook_url: "https://hooks.example.com/in?key=s3cr3t",
        proxy_url: "https://user:pw@proxy.example.com",
        portal_id: "Bearer abc",
        pin: 1234,
        note: "call me",
        enabled: true,
        retries: false,
        calendar_ids: ["primary", "work"],
        region: "eu"
      })
    ).toEqual({
      authorization: "****",
      headers: { Authorization: "****", "X-Custom": "****" },
      base_url: "https://crm.example.com/api",
      webhook_url: "****",
      proxy_url: "****",
      portal_id: "****",
      pin: "****",
      note: "****",
      enabled: true,
      retries: false,
      calendar_ids: ["primary", "work"],
      region: "eu"
    })
  })

  it("keeps a stored value behind the mask under any key that reads back masked", () => {
    const stored = { authorization: "Bearer real", nested: { header: "x-1" }, region: "eu" }
    const read = ConfigSecrets.masked(stored)
    expect(read).toEqual({ authorization: "****", nested: { header: "****" }, region: "eu" })
    expect(ConfigSecrets.carryOver(stored, { ...read, region: "us" })).toEqual({ ...stored, region: "us" })
  })

  it("masks secret values at any depth and leaves the rest", () => {
    expect(
      ConfigSecrets.masked({
        calendar_id: "primary",
        access_token: "ya29.abc",
        refresh_token: null,
        oauth: { client_secret: "s", scope: "calendar" },
        accounts: [{ password: 42, user: "bob" }],
        credentials_secret: { nested: "value" }
      })
    ).toEqual({
      calendar_id: "primary",
      access_token: "****",
      refresh_token: null,
      oauth: { client_secret: "****", scope: "calendar" },
      accounts: [{ password: "****", user: "bob" }],
      credentials_secret: "****"
    })
  })

  it("keeps a stored secret when the mask comes back, and takes every other value as sent", () => {
    const stored = { access_token: "real", calendar_id: "primary", oauth: { client_secret: "s" } }
    expect(
      ConfigSecrets.carryOver(stored, {
        access_token: "****",
        calendar_id: "work",
        oauth: { client_secret: "****" }
      })
    ).toEqual({ access_token: "real", calendar_id: "work", oauth: { client_secret: "s" } })
    expect(ConfigSecrets.carryOver(stored, { access_token: "new" })).toEqual({ access_token: "new" })
    // the mask under a key that was never stored is taken literally: there is nothing to keep
    expect(ConfigSecrets.carryOver({}, { api_key: "****" })).toEqual({ api_key: "****" })
    // a public key holding the mask is just a value
    expect(ConfigSecrets.carryOver({ name: "x" }, { name: "****" })).toEqual({ name: "****" })
  })

  const config = FastCheck.dictionary(
    FastCheck.oneof(
      FastCheck.constantFrom("token", "api_key", "password", "name", "url"),
      FastCheck.string()
    ),
    FastCheck.oneof(FastCheck.string(), FastCheck.integer(), FastCheck.constant(null)),
    { maxKeys: 8 }
  )

  it.prop(
    "a masked config shows a value only under a public key, else null or the mask",
    [config],
    ([value]) => {
      const shown = ConfigSecrets.masked(value)
      for (const [key, inner] of Object.entries(shown)) {
        if (inner === null) expect(value[key]).toBeNull()
        else if (ConfigSecrets.isPublicKey(key) && inner !== ConfigSecrets.mask)
          expect(inner).toEqual(value[key])
        else expect(inner).toBe(ConfigSecrets.mask)
      }
    }
  )

  it.prop("sending back what was read changes nothing", [config], ([value]) => {
    expect(ConfigSecrets.carryOver(value, ConfigSecrets.masked(value))).toEqual(value)
  })
})
