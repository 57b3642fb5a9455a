import { defaultTimeoutMs, type HttpApiConfig } from "./ToolDefinition.js"

/** The longest an HTTP API tool call may take: a caller is waiting on the line. */
export const maxTimeoutMs = 30_000

/**
 * The deadline a call gets: the tool's `timeout_ms` (5000 when unset), at most `maxTimeoutMs`. Stored
 * tools may hold more (the stored schema allows up to 120000); they are clamped here rather than made
 * unreadable.
 */
export const timeoutMsOf = (config: HttpApiConfig): number =>
  Math.min(config.timeout_ms ?? defaultTimeoutMs, maxTimeoutMs)
