import { afterAll, describe, expect, it } from "@effect/vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { signalGroup } from "../support/ServerProcesses.js"

/**
 * What `npm start` runs before the server (`scripts/build-when-changed.js`), over a checkout of its own
 * whose build (`build:steps`) is a script that takes a second, fails if another build of the checkout is
 * running, and counts its runs: several starts at once build once, a start with nothing changed builds
 * nothing, a changed source builds again, `npm run build` (`--always`) builds, and a lock left by a build
 * that died is taken over. Every process runs in its own group, killed with the test.
 */
const script = fileURLToPath(new URL("../../scripts/build-when-changed.js", import.meta.url))
const checkout = mkdtempSync(join(tmpdir(), "vap-build-when-changed-"))
afterAll(() => rmSync(checkout, { recursive: true, force: true }))

// what the script checks a build made (its `outputs`)
const outputs = [
  "packages/http/dist/bundle/start.js",
  "packages/http/dist/bundle/server.cjs",
  "packages/http/dist/src/cli/main.js",
  "packages/console/dist/console/manifest.json",
  ...["core", "contract", "pg", "blob-stores", "language-models", "voice"].map(
    (name) => `packages/${name}/dist/src/index.js`
  )
]
const fakeBuild = `
const { appendFileSync, mkdirSync, openSync, closeSync, rmSync, writeFileSync } = require("node:fs")
const { dirname } = require("node:path")
let marker
try {
  marker = openSync("building", "wx")
} catch {
  console.error("two builds at once")
  process.exit(3)
}
appendFileSync("builds.log", "built\\n")
setTimeout(() => {
  for (const output of ${JSON.stringify(outputs)}) {
    mkdirSync(dirname(output), { recursive: true })
    writeFileSync(output, "")
  }
  closeSync(marker)
  rmSync("building")
}, 1000)
`
writeFileSync(
  join(checkout, "package.json"),
  JSON.stringify({ name: "checkout", private: true, scripts: { "build:steps": "node build.cjs" } })
)
writeFileSync(join(checkout, "build.cjs"), fakeBuild)
const source = join(checkout, "packages", "http", "src", "main.ts")
mkdirSync(join(checkout, "packages", "http", "src"), { recursive: true })
writeFileSync(source, "export {}\n")

const children = new Set<ChildProcess>()
afterAll(() => children.forEach((child) => signalGroup(child, "SIGKILL")))

/** One run of the script over the checkout: its exit code and output (bounded at 60 s). */
const run = (...args: ReadonlyArray<string>) =>
  new Promise<{ readonly code: number | null; readonly output: string }>((resolve) => {
    const child = spawn(process.execPath, [script, "--root", checkout, ...args], {
      cwd: checkout,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"]
    })
    children.add(child)
    let output = ""
    child.stdout!.on("data", (chunk) => (output += chunk))
    child.stderr!.on("data", (chunk) => (output += chunk))
    const bound = setTimeout(() => signalGroup(child, "SIGKILL"), 60_000)
    child.on("exit", (code) => {
      clearTimeout(bound)
      children.delete(child)
      resolve({ code, output })
    })
  })

const builds = () => readFileSync(join(checkout, "builds.log"), "utf8").split("\n").filter(Boolean).length

const allSucceed = async (count: number, ...args: ReadonlyArray<string>) => {
  const results = await Promise.all(Array.from({ length: count }, () => run(...args)))
  for (const result of results) expect(result, result.output).toMatchObject({ code: 0 })
}

describe("npm start's build: only when the sources changed, never two at once", () => {
  it("builds once for four starts at once, then not again until a source changes", async () => {
    await allSucceed(4)
    expect(builds()).toBe(1)

    await allSucceed(2)
    expect(builds()).toBe(1)

    const later = new Date(Date.now() + 5_000)
    utimesSync(source, later, later)
    await allSucceed(4)
    expect(builds()).toBe(2)
  }, 60_000)

  it("builds again when an output is gone, and always with --always (npm run build)", async () => {
    const before = builds()
    rmSync(join(checkout, outputs[1]!))
    await allSucceed(1)
    expect(builds()).toBe(before + 1)
    await allSucceed(1, "--always")
    expect(builds()).toBe(before + 2)
  }, 60_000)

  it("takes over the lock of a build whose process is gone", async () => {
    const before = builds()
    const gone = spawn(process.execPath, ["-e", ""])
    const pid = await new Promise<number>((resolve) => gone.on("exit", () => resolve(gone.pid!)))
    mkdirSync(join(checkout, "build", "start-build.lock"), { recursive: true })
    writeFileSync(join(checkout, "build", "start-build.lock", "pid"), String(pid))
    writeFileSync(source, "export const changed = true\n")
    await allSucceed(2)
    expect(builds()).toBe(before + 1)
  }, 60_000)
})
