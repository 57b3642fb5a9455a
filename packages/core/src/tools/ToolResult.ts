/** Why a tool call did not succeed (the contract's list). */
export type ToolErrorType =
  | "invalid_arguments"
  | "timeout"
  | "destination_not_allowed"
  | "connection_failed"
  | "http_status"
  | "invalid_response"
  | "no_transfer_destination"

/** What a failed call reports: a category and a sentence that names no secret and no internal address. */
export interface ToolError {
  readonly type: ToolErrorType
  readonly detail: string
}

/**
 * What running a tool gives: for `http_api`, the receiver's status and the picked response; for
 * `transfer` `{action: "transfer", destination_number}`; for `end_call` `{action: "end_call", message}`.
 * `message` is what the agent says: the tool's `error_message` on failure, the transfer's or end-call
 * message, otherwise null.
 */
export interface ToolResult {
  readonly ok: boolean
  readonly status_code: number | null
  readonly duration_ms: number
  readonly response: unknown
  readonly message: string | null
  readonly error: ToolError | null
}
