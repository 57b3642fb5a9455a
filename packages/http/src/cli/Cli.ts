import { Cause, ConfigProvider, Effect, Either, Exit } from "effect"
import * as CliArguments from "./CliArguments.js"
import * as CliCommands from "./CliCommands.js"

/** Where `vap` writes: the process's streams in `main.ts`, a test's buffers in-process. */
export interface Output {
  readonly stdout: (text: string) => void
  readonly stderr: (text: string) => void
}

/**
 * Runs one `vap` command line and answers its exit code: 0 done, 1 the command failed (not found, invalid
 * value, database), 2 bad arguments. The settings (`DATA_DIR`, `DATABASE_URL`, ...) are read from
 * `settings`: the environment by default.
 */
export const run = async (
  args: ReadonlyArray<string>,
  output: Output,
  settings: ConfigProvider.ConfigProvider = ConfigProvider.fromEnv()
): Promise<number> => {
  const parsed = CliArguments.parse(args)
  if (Either.isLeft(parsed)) {
    output.stderr(`vap: ${parsed.left.message}\n\n${parsed.left.help}\n`)
    return 2
  }
  const { command, json } = parsed.right
  if (command._tag === "Help") {
    output.stdout(`${command.text}\n`)
    return 0
  }
  const exit = await Effect.runPromiseExit(
    Effect.scoped(CliCommands.run(command)).pipe(Effect.withConfigProvider(settings))
  )
  if (Exit.isSuccess(exit)) {
    output.stdout(json ? `${JSON.stringify(exit.value.json, null, 2)}\n` : `${exit.value.text.join("\n")}\n`)
    return 0
  }
  const failure = Cause.failureOption(exit.cause)
  const error = failure._tag === "Some" ? failure.value : Cause.squash(exit.cause)
  const message =
    error instanceof Error || error instanceof CliCommands.CommandFailed ? error.message : String(error)
  output.stderr(json ? `${JSON.stringify({ error: message })}\n` : `vap: ${message}\n`)
  return 1
}
