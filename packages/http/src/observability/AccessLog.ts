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

/**
 * Where access log lines go: by default through Effect's logger (`info`, message `request`, the entry as
 * annotations), so an embedder's logger receives them; the bundled server writes them directly in its
 * log format instead (`Logging.layer`), which costs far less per request.
 */
export class AccessLog extends Context.Reference<AccessLog>()("@voice-agent-platform/http/AccessLog", {
  defaultValue: (): ((entry: AccessLogEntry) => Effect.Effect<void>) => (entry) =>
    Effect.logInfo("request").pipe(Effect.annotateLogs(entry as unknown as Record<string, unknown>))
}) {}
