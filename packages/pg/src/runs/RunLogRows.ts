import { RunLogEntry } from "@voice-agent-platform/core/runs/Run.js"
import { ParseResult, Schema } from "effect"

/** A log line as a run's `logs` column keeps it (jsonb): its instant as ISO text. */
export const StoredLogEntry = Schema.Struct({ ...RunLogEntry.fields, timestamp: Schema.Date })

/** The column as its schema reads it: what `StoredLogs` must answer, value for value and failure for failure. */
export const StoredLogsBySchema = Schema.Array(StoredLogEntry)

const levels: ReadonlySet<unknown> = new Set(RunLogEntry.fields.level.literals)
const decodeEntry = ParseResult.decodeUnknownEither(StoredLogEntry)
const encodeLogs = ParseResult.encodeUnknown(StoredLogsBySchema)

/**
 * A plain line (no tool call) as the schema decodes it, or undefined for anything else: an object whose
 * `timestamp` is text naming a valid instant, `level` one of the levels and `message` text, without a
 * `tool_call` key. Other keys are dropped, as the schema drops them; the keys come in the schema's order.
 */
const plainLine = (entry: unknown): RunLogEntry | undefined => {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return undefined
  const line = entry as Record<string, unknown>
  if (typeof line.timestamp !== "string" || typeof line.message !== "string" || !levels.has(line.level))
    return undefined
  if (Object.prototype.hasOwnProperty.call(line, "tool_call")) return undefined
  const timestamp = new Date(line.timestamp)
  if (Number.isNaN(timestamp.getTime())) return undefined
  return { timestamp, level: line.level as RunLogEntry["level"], message: line.message }
}

/**
 * A run's `logs` column read as `Schema.Array(StoredLogEntry)` reads it, without the schema's walk for
 * the plain lines that make up most of a log: a run row is read back by most writes of a live call or a
 * chat turn, and its log grows with the conversation (the schema took ~3 µs a line, the row's other 35
 * columns ~24 µs in all). A line with a tool call, or anything the plain path does not take, is decoded
 * with the line's schema, and a failure is the schema's (with the line's index). A property test holds it
 * to the schema on generated and broken columns (RunLogRows.test.ts).
 */
export const StoredLogs = Schema.transformOrFail(
  Schema.Unknown,
  Schema.declare((input: unknown): input is ReadonlyArray<RunLogEntry> => Array.isArray(input)),
  {
    strict: true,
    decode: (input, options, ast) => {
      if (!Array.isArray(input)) return ParseResult.fail(new ParseResult.Type(ast, input))
      const lines: Array<RunLogEntry> = new Array(input.length)
      for (let i = 0; i < input.length; i++) {
        const plain = plainLine(input[i])
        if (plain !== undefined) {
          lines[i] = plain
          continue
        }
        const decoded = decodeEntry(input[i], options)
        if (decoded._tag === "Left")
          return ParseResult.fail(
            new ParseResult.Composite(ast, input, new ParseResult.Pointer(i, input, decoded.left))
          )
        lines[i] = decoded.right
      }
      return ParseResult.succeed(lines)
    },
    encode: (lines) => encodeLogs(lines)
  }
)
