import { Schema } from "effect"
import * as CodePoints from "../text/CodePoints.js"
import { isSecretHeader, secretMask } from "./Tool.js"
import * as ToolOutcome from "./ToolOutcome.js"
import type { ToolResult } from "./ToolResult.js"

/** The most characters of a tool's response a run's log keeps (4 KiB of JSON text). */
export const maxLoggedResponseChars = 4096

/** The most tool calls one run may make (and so keep in its logs); one more is refused, not run. */
export const maxToolCallsPerRun = 100

/** One tool call as a run's log keeps it: no secret, the response cut to `maxLoggedResponseChars`. */
export const ToolCallRecord = Schema.Struct({
  tool_uuid: Schema.String,
  tool_type: Schema.String,
  /** The model's arguments; values of secret-looking names and the tool's secrets read `****`. */
  arguments: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  outcome: Schema.Literal("ok", "error"),
  error_type: Schema.NullOr(Schema.String),
  status_code: Schema.NullOr(Schema.Int),
  duration_ms: Schema.NonNegativeInt,
  /** The result's response as JSON text, at most `maxLoggedResponseChars`; null when there is none. */
  response: Schema.NullOr(Schema.String),
  response_truncated: Schema.Boolean
}).annotations({ identifier: "ToolCallRecord" })
export type ToolCallRecord = typeof ToolCallRecord.Type

/**
 * Arguments as a log may show them: those of secret-looking names or read by a secret header's template
 * masked, the call's secrets scrubbed from the rest.
 */
export const shownArguments = (
  args: Readonly<Record<string, unknown>>,
  secrets: ReadonlyArray<string>,
  secretArgumentNames: ReadonlyArray<string> = []
): Record<string, unknown> =>
  ToolOutcome.scrub(
    Object.fromEntries(
      Object.entries(args).map(([name, value]) => [
        name,
        isSecretArgument(name, secretArgumentNames) ? secretMask : value
      ])
    ),
    secrets
  ) as Record<string, unknown>

const isSecretArgument = (name: string, secretArgumentNames: ReadonlyArray<string>) =>
  isSecretHeader(name) || secretArgumentNames.includes(name)

/**
 * The record of a call: the result with the call's secrets and the values of secret arguments (of a
 * secret-looking name, or read by a secret header) scrubbed, its response cut for the log.
 */
export const record = (
  tool: { readonly tool_uuid: string; readonly type: string },
  args: Readonly<Record<string, unknown>>,
  result: ToolResult,
  secrets: ReadonlyArray<string>,
  secretArgumentNames: ReadonlyArray<string> = []
): ToolCallRecord => {
  // What a secret argument carried is a secret too, wherever the answer echoes it.
  const argumentSecrets = Object.entries(args).flatMap(([name, value]) =>
    isSecretArgument(name, secretArgumentNames) && typeof value === "string" && value.length > 0
      ? [value]
      : []
  )
  secrets = [...secrets, ...argumentSecrets]
  const text =
    result.response === null || result.response === undefined
      ? null
      : JSON.stringify(ToolOutcome.scrub(result.response, secrets))
  return {
    tool_uuid: tool.tool_uuid,
    tool_type: tool.type,
    arguments: shownArguments(args, secrets, secretArgumentNames),
    outcome: result.ok ? "ok" : "error",
    error_type: result.error?.type ?? null,
    status_code: result.status_code,
    duration_ms: Math.max(0, Math.round(result.duration_ms)),
    // cut on a character boundary: half an emoji is not valid JSON text to PostgreSQL
    response: text === null ? null : CodePoints.cut(text, maxLoggedResponseChars),
    response_truncated: text !== null && text.length > maxLoggedResponseChars
  }
}

/** The log line of a call: what a person reads in the run's logs. */
export const message = (name: string, entry: ToolCallRecord): string =>
  entry.outcome === "ok"
    ? `Tool ${name} (${entry.tool_type}) answered in ${entry.duration_ms} ms`
    : `Tool ${name} (${entry.tool_type}) failed in ${entry.duration_ms} ms: ${entry.error_type ?? "error"}`
