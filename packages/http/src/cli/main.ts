#!/usr/bin/env node
// `vap`: the operator's command-line tool (a `bin` of @voice-agent-platform/http). See `vap --help`.
import { Cause, Effect, Either, Exit } from "effect"
import * as CliArguments from "./CliArguments.js"
import * as CliCommands from "./CliCommands.js"

/** Exit codes: 0 done, 1 the command failed (not found, invalid value, database), 2 bad arguments. */
const main = async (args: ReadonlyArray<string>): Promise<number> => {
  const parsed = CliArguments.parse(args)
  if (Either.isLeft(parsed)) {
    process.stderr.write(`vap: ${parsed.left.message}\n\n${parsed.left.help}\n`)
    return 2
  }
  const { command, json } = parsed.right
  if (command._tag === "Help") {
    process.stdout.write(`${command.text}\n`)
    return 0
  }
  const exit = await Effect.runPromiseExit(Effect.scoped(CliCommands.run(command)))
  if (Exit.isSuccess(exit)) {
    process.stdout.write(
      json ? `${JSON.stringify(exit.value.json, null, 2)}\n` : `${exit.value.text.join("\n")}\n`
    )
    return 0
  }
  const failure = Cause.failureOption(exit.cause)
  const error = failure._tag === "Some" ? failure.value : Cause.squash(exit.cause)
  const message =
    error instanceof Error || error instanceof CliCommands.CommandFailed ? error.message : String(error)
  process.stderr.write(json ? `${JSON.stringify({ error: message })}\n` : `vap: ${message}\n`)
  return 1
}

main(process.argv.slice(2)).then((code) => process.exit(code))
