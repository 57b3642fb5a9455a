import { Config, Effect, Layer, Logger, LogLevel, Option } from "effect"
import { AccessLog } from "./AccessLog.js"
import * as LogLines from "./LogLines.js"

/** How the bundled server logs: the format and the least level written. */
export interface LogSettings {
  readonly format: LogLines.LogFormat
  readonly level: LogLevel.LogLevel
}

const levels: Record<string, LogLevel.LogLevel> = {
  trace: LogLevel.Trace,
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warn: LogLevel.Warning,
  warning: LogLevel.Warning,
  error: LogLevel.Error,
  fatal: LogLevel.Fatal,
  none: LogLevel.None
}

/**
 * `LOG_FORMAT` (`json` or `text`; default: `json` when stdout is not a terminal, `text` when it is) and
 * `LOG_LEVEL` (`trace`, `debug`, `info`, `warn`, `error`, `fatal`, `none`; default `info`).
 */
export const config: Config.Config<LogSettings> = Config.all({
  format: Config.string("LOG_FORMAT").pipe(
    Config.validate({
      message: "LOG_FORMAT must be json or text",
      validation: (name): name is LogLines.LogFormat => name === "json" || name === "text"
    }),
    Config.option,
    Config.map(Option.getOrElse((): LogLines.LogFormat => (process.stdout.isTTY ? "text" : "json")))
  ),
  level: Config.string("LOG_LEVEL").pipe(
    Config.map((name) => name.toLowerCase()),
    Config.validate({
      message: `LOG_LEVEL must be one of ${Object.keys(levels).join(", ")}`,
      validation: (name) => name in levels
    }),
    Config.map((name) => levels[name]!),
    Config.withDefault(LogLevel.Info)
  )
})

/**
 * The bundled server's logging: every Effect log line in the format, at the level and above, written to
 * stdout in batches (`LogLines.LineWriter`); the access log written straight to the same writer, one
 * line per request (`info`, so `LOG_LEVEL=warn` turns it off).
 */
export const layer = (settings: LogSettings): Layer.Layer<never> => {
  const writer = new LogLines.LineWriter()
  const accessLogged = LogLevel.greaterThanEqual(LogLevel.Info, settings.level)
  const accessLog = (entry: Parameters<AccessLog["Type"]>[0]) =>
    accessLogged
      ? Effect.sync(() =>
          writer.write(
            LogLines.format(settings.format, {
              time: new Date(),
              level: "INFO",
              message: "request",
              fields: entry as unknown as Record<string, unknown>
            })
          )
        )
      : Effect.void
  return Layer.mergeAll(
    Logger.replace(Logger.defaultLogger, LogLines.logger(settings.format, writer)),
    Logger.minimumLogLevel(settings.level),
    Layer.succeed(AccessLog, accessLog)
  )
}

/** `layer` with the settings read from the environment (`config`). */
export const layerFromEnv = Layer.unwrapEffect(Effect.map(config, layer))
