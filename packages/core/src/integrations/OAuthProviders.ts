/** An OAuth client the deployment has for a sign-in provider (the client id is public in OAuth flows). */
export interface OAuthClient {
  readonly provider: string
  readonly client_id: string
}

/** One entry of `GET /integrations/oauth/providers`. */
export interface OAuthProvider {
  readonly provider: string
  readonly name: string
  readonly configured: boolean
}

/** The sign-in providers the platform knows, with their display names, in the order they are listed. */
export const knownProviders: ReadonlyArray<{ readonly provider: string; readonly name: string }> = [
  { provider: "google", name: "Google" },
  { provider: "microsoft", name: "Microsoft" },
  { provider: "hubspot", name: "HubSpot" },
  { provider: "salesforce", name: "Salesforce" },
  { provider: "calendly", name: "Calendly" }
]

/**
 * Every known provider with whether this deployment has a client for it, then any other configured
 * provider (named by its id), so a deployment can add providers without a code change.
 */
export const list = (clients: ReadonlyArray<OAuthClient>): ReadonlyArray<OAuthProvider> => {
  const configured = new Set(clients.filter((c) => c.client_id.trim() !== "").map((c) => c.provider))
  const known = new Set(knownProviders.map((p) => p.provider))
  return [
    ...knownProviders.map((p) => ({ ...p, configured: configured.has(p.provider) })),
    ...Array.from(configured)
      .filter((provider) => !known.has(provider))
      .sort()
      .map((provider) => ({ provider, name: provider, configured: true }))
  ]
}
