import { execFile } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"

/**
 * The README's "Using the core" snippets run as written: each TypeScript block of that section is
 * copied, unchanged, into a file of this example (so it imports the packages as a user's project does)
 * and run with Node.
 */
const readme = readFileSync(fileURLToPath(new URL("../../../README.md", import.meta.url)), "utf8")
const section = readme.slice(
  readme.indexOf("## Using the core"),
  readme.indexOf("\n## ", readme.indexOf("## Using the core") + 1)
)
const snippets = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!)

const run = async (source: string) => {
  // inside the example, so `@voice-agent-platform/core` and `effect` resolve from its dependencies; its
  // build folder is made by `tsc -b`, which `npm test` on a fresh clone has not run
  const build = fileURLToPath(new URL("../build/", import.meta.url))
  mkdirSync(build, { recursive: true })
  const directory = mkdtempSync(join(build, "readme-"))
  try {
    const file = join(directory, "snippet.ts")
    writeFileSync(file, source)
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--conditions=@voice-agent-platform/source", "--import", "tsx", file],
      { timeout: 60_000, killSignal: "SIGKILL" }
    )
    return stdout
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
}

describe("the README's core snippets", () => {
  it("are there: the calling-hours rule and the in-memory engine", () => {
    expect(snippets).toHaveLength(2)
  })

  it("the calling-hours rule runs as written", async () => {
    const stdout = await run(snippets[0]!)
    // within calling hours it prints nothing; outside them, when to retry
    expect(stdout).toMatch(/^(|retry at \d{4}-\d\d-\d\dT[\d:.]+Z\n)$/)
  }, 90_000)

  it("the in-memory engine places a call as written", async () => {
    // the engine's own log line ("call placed"), then what the snippet prints
    expect((await run(snippets[1]!)).trimEnd().split("\n").at(-1)).toBe("queued")
  }, 90_000)
})
