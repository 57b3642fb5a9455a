import { afterAll, describe, expect, it } from "@effect/vitest"
import { CallingClock } from "@voice-agent-platform/core/testing"
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { build, freePort, signalGroup } from "../support/ServerProcesses.js"

const root = fileURLToPath(new URL("../../../../", import.meta.url))
const consumer = fileURLToPath(new URL("./consumer/", import.meta.url))
const packages = [
  "packages/core",
  "packages/contract",
  "packages/pg",
  "packages/blob-stores",
  "packages/language-models",
  "packages/voice",
  "packages/console",
  "packages/http"
]

/** npm as a user runs it: none of the `npm_*` settings of the `npm test` that started this test. */
const userEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !/^npm_/i.test(key) || /^npm_config_(cache|registry|userconfig)$/i.test(key)
    )
  )

/** Runs a command to its end within `seconds` (killed after), failing with its output when it fails. */
const run = async (command: string, args: ReadonlyArray<string>, cwd: string, seconds: number) => {
  try {
    return await promisify(execFile)(command, args, {
      cwd,
      env: userEnv(),
      timeout: seconds * 1000,
      killSignal: "SIGKILL",
      maxBuffer: 16 * 1024 * 1024
    })
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string }
    throw new Error(
      `${command} ${args.join(" ")} failed: ${failed.message}\n${failed.stdout}\n${failed.stderr}`
    )
  }
}

const scratch = mkdtempSync(join(tmpdir(), "vap-packed-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** The server started from the installed tarballs, in its own process group. */
const serve = async (app: string, env: Record<string, string>) => {
  const child: ChildProcess = spawn(process.execPath, ["serve.mjs"], {
    cwd: app,
    env: { ...userEnv(), ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true
  })
  const killOnExit = () => signalGroup(child, "SIGKILL")
  process.once("exit", killOnExit)
  child.once("exit", () => process.off("exit", killOnExit))
  let output = ""
  child.stdout!.on("data", (chunk) => (output += chunk))
  child.stderr!.on("data", (chunk) => (output += chunk))
  const deadline = Date.now() + 60_000
  while (!output.includes("listening on")) {
    if (Date.now() > deadline || child.exitCode !== null || child.signalCode !== null) {
      signalGroup(child, "SIGKILL")
      throw new Error(`the installed server did not start:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return { child, output: () => output }
}

describe("the packed packages", () => {
  it("install from their tarballs into an empty folder outside the workspace and place a call under plain node", async () => {
    // the build npm start runs (a no-op after the tests' global setup made it): not `npm run build`, which
    // rebuilds the bundle other test files are running
    await build()
    const tarballs = join(scratch, "tarballs")
    mkdirSync(tarballs)
    await run(
      "npm",
      ["pack", ...packages.flatMap((p) => ["-w", p]), "--pack-destination", tarballs],
      root,
      300
    )
    const packed = readdirSync(tarballs).sort()
    expect(packed).toEqual([
      "voice-agent-platform-blob-stores-0.1.0.tgz",
      "voice-agent-platform-console-0.1.0.tgz",
      "voice-agent-platform-contract-0.1.0.tgz",
      "voice-agent-platform-core-0.1.0.tgz",
      "voice-agent-platform-http-0.1.0.tgz",
      "voice-agent-platform-language-models-0.1.0.tgz",
      "voice-agent-platform-pg-0.1.0.tgz",
      "voice-agent-platform-voice-0.1.0.tgz"
    ])

    // An empty service of a user: no TypeScript, no tsx, no workspace; dependencies from the npm cache or
    // the registry, with no install scripts (nothing is downloaded at run time).
    const app = join(scratch, "app")
    mkdirSync(app)
    writeFileSync(
      join(app, "package.json"),
      JSON.stringify({ name: "consumer", private: true, type: "module" })
    )
    await run(
      "npm",
      [
        "install",
        "--prefer-offline",
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
        ...packed.map((file) => join(tarballs, file)),
        "effect@3.22.4",
        "@effect/platform-node@0.108.2"
      ],
      app,
      300
    )
    copyFileSync(join(consumer, "serve.mjs"), join(app, "serve.mjs"))
    expect(readdirSync(join(app, "node_modules"))).not.toContain("typescript")
    expect(readdirSync(join(app, "node_modules"))).not.toContain("tsx")
    // the server package keeps the client's old path for embedders
    const oldPath = await run(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        'const Client = await import("@voice-agent-platform/http/embedding/Client.js"); console.log(typeof Client.make)'
      ],
      app,
      30
    )
    expect(oldPath.stdout.trim()).toBe("function")
    // the operator's tool is installed as a bin
    const help = await run(join(app, "node_modules/.bin/vap"), ["--help"], app, 30)
    expect(help.stdout).toContain("Usage: vap <command>")

    // A client of the API: the contract's tarball (and core's, for its schemas) and Effect, nothing else.
    const clientApp = join(scratch, "client")
    mkdirSync(clientApp)
    writeFileSync(
      join(clientApp, "package.json"),
      JSON.stringify({ name: "client", private: true, type: "module" })
    )
    await run(
      "npm",
      [
        "install",
        "--prefer-offline",
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
        ...packed.filter((file) => /-(contract|core)-/.test(file)).map((file) => join(tarballs, file)),
        "effect@3.22.4"
      ],
      clientApp,
      300
    )
    copyFileSync(join(consumer, "place-call.mjs"), join(clientApp, "place-call.mjs"))
    const installed = readdirSync(join(clientApp, "node_modules"))
    expect(installed).not.toContain("pg")
    expect(readdirSync(join(clientApp, "node_modules/@voice-agent-platform")).sort()).toEqual([
      "contract",
      "core"
    ])
    expect(readdirSync(join(clientApp, "node_modules/@effect"))).toEqual(["platform"])

    const port = await freePort()
    const apiKey = `vap_${"P".repeat(40)}`
    const server = await serve(app, {
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: join(scratch, "data"),
      BOOTSTRAP_API_KEY: apiKey,
      SIM_CALL_SECONDS: "0.5",
      ...CallingClock.env()
    })
    try {
      const number = CallingClock.inside
      const { stdout } = await run(
        process.execPath,
        ["place-call.mjs", `http://127.0.0.1:${port}`, apiKey, number],
        clientApp,
        60
      )
      const result = JSON.parse(stdout) as {
        placed: { status: string; phone_number: string }
        status: string
        turns: ReadonlyArray<{ role: string; text: string }>
      }
      expect(result.placed).toMatchObject({ status: "queued", phone_number: number })
      expect(result.status).toBe("completed")
      expect(result.turns[0]).toMatchObject({
        role: "assistant",
        text: expect.stringContaining("Hello from a packed tarball.")
      })
      // the console ships in its tarball: the installed server serves its page and its script
      const page = await fetch(`http://127.0.0.1:${port}/console`)
      expect(page.status).toBe(200)
      const script = /src="console\/(assets\/main-[\w-]+\.js)"/.exec(await page.text())?.[1]
      expect(script).toBeDefined()
      expect((await fetch(`http://127.0.0.1:${port}/console/${script}`)).status).toBe(200)
    } finally {
      signalGroup(server.child, "SIGTERM")
      const stopped = new Promise((resolve) => server.child.once("exit", resolve))
      const kill = setTimeout(() => signalGroup(server.child, "SIGKILL"), 10_000)
      if (server.child.exitCode === null && server.child.signalCode === null) await stopped
      clearTimeout(kill)
    }
  }, 900_000)
})
