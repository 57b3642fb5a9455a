import { Schema } from "effect"

/** The longest name a key may have. */
export const maxNameLength = 100

/** What people call a key ("CRM integration"): 1..100 characters. */
export const ApiKeyName = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(maxNameLength))

/**
 * The name of a key made without one (an organization's first key, a key the operator issues, and every
 * key made before keys had names): "Key " and its listed prefix, e.g. "Key vap_AbC1".
 */
export const defaultName = (prefix: string): string => `Key ${prefix}`
