// The http tests' global setup: the console is built before any test needs it (`npm test` runs without
// `npm run build`), and only when its sources are newer than its build (`--if-stale`), so a run with
// nothing changed costs a few file checks.
import { execFile } from "node:child_process"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { promisify } from "node:util"

/** Builds the console when it is out of date (at most 2 minutes). */
export const setup = async (): Promise<void> => {
  const directory = dirname(
    createRequire(import.meta.url).resolve("@voice-agent-platform/console/package.json")
  )
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(directory, "scripts", "build-console.js"), "--if-stale"],
    { timeout: 120_000 }
  ).catch((error: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(
      `the console's build failed: ${error.message}\n${error.stdout ?? ""}${error.stderr ?? ""}`
    )
  })
  if (!stdout.includes("up to date")) console.log(stdout.trim())
}
