import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as OAuthProviders from "../../src/integrations/OAuthProviders.js"

describe("OAuthProviders", () => {
  it("lists every known provider as not configured by default", () => {
    expect(OAuthProviders.list([])).toEqual([
      { provider: "google", name: "Google", configured: false },
      { provider: "microsoft", name: "Microsoft", configured: false },
      { provider: "hubspot", name: "HubSpot", configured: false },
      { provider: "salesforce", name: "Salesforce", configured: false },
      { provider: "calendly", name: "Calendly", configured: false }
    ])
  })

  it("marks configured providers and appends unknown ones; a blank client id configures nothing", () => {
    const listed = OAuthProviders.list([
      { provider: "hubspot", client_id: "abc" },
      { provider: "zoho", client_id: "z" },
      { provider: "google", client_id: "  " }
    ])
    expect(listed.filter((p) => p.configured).map((p) => p.provider)).toEqual(["hubspot", "zoho"])
    expect(listed.at(-1)).toEqual({ provider: "zoho", name: "zoho", configured: true })
  })

  it.prop(
    "a provider is configured exactly when it has a client",
    [FastCheck.subarray(["google", "microsoft", "hubspot", "salesforce", "calendly"])],
    ([providers]) => {
      const listed = OAuthProviders.list(providers.map((provider) => ({ provider, client_id: "id" })))
      expect(listed).toHaveLength(5)
      for (const p of listed) expect(p.configured).toBe(providers.includes(p.provider))
    }
  )
})
