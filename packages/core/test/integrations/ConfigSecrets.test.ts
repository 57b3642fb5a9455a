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
    // a non-secret key holding the mask is just a value
    expect(ConfigSecrets.carryOver({ note: "x" }, { note: "****" })).toEqual({ note: "****" })
  })

  const config = FastCheck.dictionary(
    FastCheck.oneof(
      FastCheck.constantFrom("token", "api_key", "password", "name", "url"),
      FastCheck.string()
    ),
    FastCheck.oneof(FastCheck.string(), FastCheck.integer(), FastCheck.constant(null)),
    { maxKeys: 8 }
  )

  it.prop("a masked config shows no secret value", [config], ([value]) => {
    const shown = ConfigSecrets.masked(value)
    for (const [key, inner] of Object.entries(shown)) {
      if (ConfigSecrets.isSecretKey(key)) expect([null, ConfigSecrets.mask]).toContain(inner)
      else expect(inner).toEqual(value[key])
    }
  })

  it.prop("sending back what was read changes nothing", [config], ([value]) => {
    expect(ConfigSecrets.carryOver(value, ConfigSecrets.masked(value))).toEqual(value)
  })
})
