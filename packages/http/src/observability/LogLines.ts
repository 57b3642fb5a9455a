import { Cause, HashMap, Logger } from "effect"
import type { LogLevel } from "effect"

/** How log lines are written: one JSON object a line, or `time LEVEL message key=value …` for people. */
export type LogFormat = "json" | "text"

/** One log line: its time, level, message, and flat fields (ids, figures; never secrets). */
export interface LogLine {
  readonly time: Date
  readonly level: string
  readonly message: string
  readonly fields: Readonly<Record<string, unknown>>
}

const quoted = (value: string): string => (/^[^\s"=]+$/.test(value) ? value : JSON.stringify(value))

const textValue = (value: unknown): string =>
  typeof value === "string"
    ? quoted(value)
    : value instanceof Date
      ? value.toISOString()
      : JSON.stringify(value)

/** A line as text: JSON (`{"time","level","message",…fields}`) or readable (`time LEVEL message k=v`). */
export const format = (format: LogFormat, line: LogLine): string => {
  if (format === "json") {
    return JSON.stringify({
      time: line.time.toISOString(),
      level: line.level,
      message: line.message,
      ...line.fields
    })
  }
  let text = `${line.time.toISOString()} ${line.level.padEnd(5)} ${line.message}`
  for (const key in line.fields) {
    const value = line.fields[key]
    if (value !== undefined) text += ` ${key}=${textValue(value)}`
  }
  return text
}

/**
 * Writes lines to a stream in batches: lines written during one turn of the event loop go out in one
 * write at the next (`setImmediate`), so a busy server does not pay a system call per line; whatever is
 * still buffered is written synchronously when the process exits.
 */
export class LineWriter {
  private pending: Array<string> = []
  private scheduled = false

  constructor(private readonly output: NodeJS.WritableStream = process.stdout) {
    process.once("exit", () => this.flush())
  }

  write(line: string): void {
    this.pending.push(line)
    if (this.scheduled) return
    this.scheduled = true
    setImmediate(() => this.flush())
  }

  flush(): void {
    this.scheduled = false
    if (this.pending.length === 0) return
    const chunk = this.pending.join("\n") + "\n"
    this.pending = []
    this.output.write(chunk)
  }
}

const levelNames: Record<LogLevel.LogLevel["_tag"], string> = {
  All: "ALL",
  Trace: "TRACE",
  Debug: "DEBUG",
  Info: "INFO",
  Warning: "WARN",
  Error: "ERROR",
  Fatal: "FATAL",
  None: "NONE"
}

/** A level as written in a line (`INFO`, `WARN`, …). */
export const levelName = (level: LogLevel.LogLevel): string => levelNames[level._tag]

const messageOf = (message: unknown): string => {
  const parts = Array.isArray(message) ? message : [message]
  return parts.map((part) => (typeof part === "string" ? part : JSON.stringify(part))).join(" ")
}

/**
 * Effect's logs (`Effect.logInfo(…)` with `Effect.annotateLogs`) as lines of this format: the message,
 * the annotations as fields, a failure's cause as `cause` (its pretty print).
 */
export const logger = (logFormat: LogFormat, writer: LineWriter): Logger.Logger<unknown, void> =>
  Logger.make(({ annotations, cause, date, logLevel, message }) => {
    const fields: Record<string, unknown> = {}
    for (const [key, value] of HashMap.toEntries(annotations)) fields[key] = value
    if (!Cause.isEmpty(cause)) fields.cause = Cause.pretty(cause, { renderErrorCause: true })
    writer.write(
      format(logFormat, { time: date, level: levelName(logLevel), message: messageOf(message), fields })
    )
  })
