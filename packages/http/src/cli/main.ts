#!/usr/bin/env node
// `vap`: the operator's command-line tool (a `bin` of @voice-agent-platform/http). See `vap --help`.
import * as Cli from "./Cli.js"

Cli.run(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text)
}).then((code) => process.exit(code))
