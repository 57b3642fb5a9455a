import { Context, Effect, Layer } from "effect"

/** How many of each kind of record one organization may hold. */
export interface QuotaLimits {
  /** Webhook endpoints of an organization (`QUOTA_WEBHOOK_ENDPOINTS` in the bundled server). */
  readonly webhook_endpoints: number
  /** Knowledge-base documents of an organization, whatever their status (`QUOTA_DOCUMENTS`). */
  readonly documents: number
  /** Campaigns of an organization not yet completed or canceled (`QUOTA_CAMPAIGNS`). */
  readonly campaigns: number
  /** Active (unrevoked) API keys of an organization (`QUOTA_API_KEYS`); the operator's keys are not held to it. */
  readonly api_keys: number
}

/**
 * 20 webhook endpoints (Stripe allows 16 per account: enough for every environment and consumer of an
 * organization), 1,000 documents (at the 10 MiB upload limit, 10 GB of files and their chunks) and 100
 * campaigns not yet ended (each up to 100,000 contacts: 10 million contacts an organization has to dial),
 * 20 active API keys (one per environment and integration, with room to rotate each).
 */
export const defaults: QuotaLimits = { webhook_endpoints: 20, documents: 1000, campaigns: 100, api_keys: 20 }

/** The largest quota accepted: beyond it a quota no longer bounds anything. */
export const maxLimit = 1_000_000

/** True for a usable quota: a whole number from 1 to `maxLimit`. */
export const isValidLimit = (limit: number): boolean =>
  Number.isInteger(limit) && limit >= 1 && limit <= maxLimit

/** The quotas per organization: configuration with defaults, so a host that does not care provides nothing. */
export class Quotas extends Context.Reference<Quotas>()("@voice-agent-platform/core/Quotas", {
  defaultValue: (): QuotaLimits => defaults
}) {}

/** The given quotas, the defaults for those left out; a quota outside 1..`maxLimit` is a defect. */
export const layer = (limits: Partial<QuotaLimits>): Layer.Layer<Quotas> => {
  const merged = { ...defaults, ...limits }
  const invalid = Object.entries(merged).find(([, limit]) => !isValidLimit(limit))
  return Layer.effect(
    Quotas,
    invalid === undefined
      ? Effect.succeed(merged)
      : Effect.dieMessage(`The ${invalid[0]} quota must be a whole number from 1 to ${maxLimit}`)
  )
}
