import { Context, type Duration, type Effect } from "effect"
import { OutboundFailure } from "./OutboundErrors.js"

/** The methods the engine sends: webhooks POST, `http_api` tools any of these. */
export type OutboundMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE"

/**
 * One request on a tenant's behalf. The URL carries any query (tools put GET/DELETE arguments there);
 * the body is sent as given with the caller's content type.
 */
export interface OutboundRequest {
  readonly method: OutboundMethod
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string | Uint8Array
  /** The whole exchange (resolution, connection, answer, body) ends by then. */
  readonly timeout: Duration.DurationInput
  /** The most response-body bytes read; the rest is not read (`truncated`). */
  readonly maxResponseBytes: number
}

/** What came back, whatever the status (callers classify a non-2xx as `http_status`). */
export interface OutboundResponse {
  readonly status: number
  /** Lower-case names; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>
  /** At most `maxResponseBytes` bytes. */
  readonly body: Uint8Array
  /** Whether the receiver sent more than `maxResponseBytes` (the rest was not read). */
  readonly truncated: boolean
}

/** What a tenant may see of a failure: a category, never the error behind it. */
export type OutboundFailureCategory = "timeout" | "connection_failed" | "destination_not_allowed"

/**
 * The one way out: every HTTP request the engine makes for a tenant goes through it. Its adapter
 * resolves the host, refuses destinations the `OutboundPolicy` refuses, connects to the address it
 * checked, follows no redirects, ends the exchange at the deadline and reads at most the byte cap.
 */
export class OutboundHttp extends Context.Tag("@voice-agent-platform/core/OutboundHttp")<
  OutboundHttp,
  { readonly send: (request: OutboundRequest) => Effect.Effect<OutboundResponse, OutboundFailure> }
>() {}
