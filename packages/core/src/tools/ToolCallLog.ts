import { Schema } from "effect"
import * as CodePoints from "../text/CodePoints.js"
import { isSecretHeader, secretMask } from "./Tool.js"
import * as ToolOutcome from "./ToolOutcome.js"
import type { ToolResult } from "./ToolResult.js"

/** The most characters of a tool's response a run's log keeps (4 KiB of JSON text). */
export const maxLoggedResponseChars = 4096

/** The most characters of a call's arguments (as JSON text) a run's log keeps (4 KiB). */
export const maxLoggedArgumentsChars = 4096

/** The most tool calls one run may make (and so keep in its logs); one more is refused, not run. */
export const maxToolCallsPerRun = 100

/** One tool call as a run's log keeps it: no secret, the response cut to `maxLoggedResponseChars`. */
export const ToolCallRecord = Schema.Struct({
  tool_uuid: Schema.String,
  tool_type: Schema.String,
  /**
   * The model's arguments; values of secret arguments and the call's secrets read `****`. At most
   * `maxLoggedArgumentsChars` of JSON text: arguments past it are left out, a string cut to fit.
   */
  arguments: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  /** True when arguments were left out or cut (absent on lines logged before the bound). */
  arguments_truncated: Schema.optionalWith(Schema.Boolean, { default: () => false }),
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
 * The arguments cut to at most `limit` characters of JSON text, in their order: an argument that does not
 * fit is left out, unless it is a string, which is cut (on a character boundary) to the room left.
 */
export const boundedArguments = (
  args: Readonly<Record<string, unknown>>,
  limit: number = maxLoggedArgumentsChars
): { readonly arguments: Record<string, unknown>; readonly truncated: boolean } => {
  if (JSON.stringify(args).length <= limit) return { arguments: { ...args }, truncated: false }
  const kept: Record<string, unknown> = {}
  let used = 2 // the braces
  for (const [name, value] of Object.entries(args)) {
    // `"name":` and a separating comma
    const overhead = JSON.stringify(name).length + 1 + (used > 2 ? 1 : 0)
    const room = limit - used - overhead
    const whole = JSON.stringify(value) as string | undefined
    if (whole !== undefined && whole.length <= room) {
      kept[name] = value
      used += overhead + whole.length
    } else if (typeof value === "string" && room >= 2) {
      // escapes make the JSON longer than the text: shrink until it fits
      let cut = CodePoints.cut(value, room - 2)
      while (JSON.stringify(cut).length > room) cut = CodePoints.cut(cut, Math.floor(cut.length / 2))
      kept[name] = cut
      used += overhead + JSON.stringify(cut).length
    }
  }
  return { arguments: kept, truncated: true }
}

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
  const shown = boundedArguments(shownArguments(args, secrets, secretArgumentNames))
  return {
    tool_uuid: tool.tool_uuid,
    tool_type: tool.type,
    arguments: shown.arguments,
    arguments_truncated: shown.truncated,
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
