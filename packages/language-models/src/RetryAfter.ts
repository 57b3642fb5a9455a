/**
 * How long a rate-limited client should wait, as providers say it, and how their answer headers are read:
 * core's `ProviderHeaders`, which the speech adapters read with too, kept here under this package's old name.
 */
export {
  type HeaderReader,
  headerReader,
  retryAfterMs
} from "@voice-agent-platform/core/providers/ProviderHeaders.js"
