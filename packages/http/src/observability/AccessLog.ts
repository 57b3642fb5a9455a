import { Context, Effect } from "effect"

/**
 * One request as the access log records it: never its query string, headers or body, so no API key,
 * token or download link signature can reach the log.
 */
export interface AccessLogEntry {
  readonly request_id: string | undefined
  readonly method: string
  /** The operation's path template (`/api/v1/agents/{agent_id}/calls`), never the raw path. */
  readonly route: string
  readonly status: number
  readonly duration_ms: number
  /** The organization whose API key authenticated the request, when one did. */
  readonly organization_id: number | undefined
}

/** The entry's fields that are set (an unauthenticated request has no organization). */
const definedFields = (entry: AccessLogEntry): Record<string, unknown> => {
  const fields: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(entry)) if (value !== undefined) fields[key] = value
  return fields
}

/**
 * Where access log lines go. By default through Effect's logger at `debug` (message `request`, the entry
 * as annotations): an embedder's logger receives them once it lets `debug` through, and otherwise they
 * cost next to nothing. The bundled server writes them at `info` directly in its log format instead
 * (`Logging.layer`), which costs far less per request than Effect's logger pipeline.
 */
export class AccessLog extends Context.Reference<AccessLog>()("@voice-agent-platform/http/AccessLog", {
  defaultValue: (): ((entry: AccessLogEntry) => Effect.Effect<void>) => (entry) =>
    Effect.logDebug("request").pipe(Effect.annotateLogs(definedFields(entry)))
}) {}
