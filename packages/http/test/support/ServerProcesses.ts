import { type ChildProcess, execFile, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { request } from "node:http"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const main = fileURLToPath(new URL("../../src/server/main.ts", import.meta.url))
/** What `npm start` runs once `npm run build` has made it: the compiled server bundled into one file. */
const bundled = fileURLToPath(new URL("../../dist/bundle/start.js", import.meta.url))
/** The checkout the tests run in (where `npm start` is run). */
export const repositoryRoot = fileURLToPath(new URL("../../../../", import.meta.url))
const buildWhenChanged = fileURLToPath(new URL("../../scripts/build-when-changed.js", import.meta.url))
/**
 * Whether this run tests the packages compiled (`npm test`; vitest.packages.js): its global setup built
 * them and the bundle from the current sources, so a spawned server runs the bundle, as `npm start` does.
 * In watch mode a spawned server runs the sources through `tsx`, so an edit is what the next run tests.
 */
const bundledByDefault = process.env["VAP_TEST_PACKAGES"] === "compiled"

/**
 * The build `npm start` runs first (`prestart`: packages/http/scripts/build-when-changed.js), only when a
 * source changed since the last one and never two at once; bounded at 5 minutes. Not `npm run build`
 * (`--always`), which would rebuild the bundle while other test files run it.
 */
export const build = () =>
  new Promise<void>((resolve, reject) => {
    execFile(
      process.execPath,
      [buildWhenChanged],
      { cwd: repositoryRoot, timeout: 300_000 },
      (error, stdout, stderr) =>
        error === null
          ? resolve()
          : reject(new Error(`the build failed: ${error.message}\n${stdout}${stderr}`))
    )
  })

/** A port nobody listens on right now. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

/** A bundled server running in a child process. */
export interface Running {
  readonly child: ChildProcess
  readonly port: number
  readonly output: () => string
  readonly exited: Promise<number | null>
  /** The environment it was started with (to start it again the same way). */
  readonly env: Record<string, string>
}

const directories: Array<string> = []

/** A fresh data directory for a server; `removeDataDirectories` deletes every one made so far. */
export const dataDirectory = () => {
  const directory = mkdtempSync(join(tmpdir(), "vap-server-"))
  directories.push(directory)
  return directory
}

/** Deletes the data directories this test file made (call it once its servers have stopped). */
export const removeDataDirectories = () => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true })
}

/** Signals a server's whole process group (it runs in its own); nothing when it is gone already. */
export const signalGroup = (child: ChildProcess, signal: NodeJS.Signals) => {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
  try {
    process.kill(-child.pid, signal)
  } catch {
    // the group is gone already
  }
}

/**
 * Spawns the server, in a process group of its own, without waiting: `compiled`, exactly as `npm start`
 * runs it (the bundle `build` makes; the default when the run tests the packages compiled), or from the
 * sources through `tsx`.
 */
export const spawnServer = (
  env: Record<string, string>,
  { compiled = bundledByDefault }: { readonly compiled?: boolean } = {}
): ChildProcess => {
  const child = spawn(
    process.execPath,
    compiled ? [bundled] : ["--conditions=@voice-agent-platform/source", "--import", "tsx", main],
    {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true
    }
  )
  // The test process may end on any path: the server's group goes with it.
  const killOnExit = () => signalGroup(child, "SIGKILL")
  process.once("exit", killOnExit)
  child.once("exit", () => process.off("exit", killOnExit))
  return child
}

/** Starts the server (`spawnServer`) and waits until it says it listens. */
export const start = async (env: Record<string, string> = {}): Promise<Running> => {
  const port = env["PORT"] !== undefined ? Number(env["PORT"]) : await freePort()
  const fullEnv = { DATA_DIR: dataDirectory(), ...env, PORT: String(port), HOST: "127.0.0.1" }
  const child = spawnServer(fullEnv)
  let output = ""
  child.stdout!.on("data", (chunk) => (output += chunk))
  child.stderr!.on("data", (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
  const deadline = Date.now() + 60_000
  while (!output.includes("listening on")) {
    if (Date.now() > deadline || child.exitCode !== null || child.signalCode !== null) {
      signalGroup(child, "SIGKILL")
      throw new Error(`the server did not start:\n${output}`)
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  return { child, port, output: () => output, exited, env: fullEnv }
}

/** Stops a server with SIGTERM (SIGKILL if it has not exited 20 s later) and answers its exit code. */
export const stop = (server: Running): Promise<number | null> => {
  if (server.child.exitCode === null && server.child.signalCode === null) {
    server.child.kill("SIGTERM")
    const kill = setTimeout(() => signalGroup(server.child, "SIGKILL"), 20_000)
    void server.exited.then(() => clearTimeout(kill))
  }
  return server.exited
}

/** Starts several servers at once; when one fails to start, stops the others before failing. */
export const startAll = async (envs: ReadonlyArray<Record<string, string>>): Promise<Array<Running>> => {
  const started = await Promise.allSettled(envs.map((env) => start(env)))
  const running = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []))
  const failed = started.find((result) => result.status === "rejected")
  if (failed !== undefined) {
    await Promise.all(running.map(stop))
    throw failed.reason
  }
  return running
}

export interface Answer {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: string
}

/** One HTTP request to a server; `json` is sent as the body. */
export const call = (
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string
) =>
  new Promise<Answer>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      let text = ""
      res.on("data", (chunk) => (text += chunk))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }))
    })
    req.on("error", reject)
    req.end(body)
  })

/** A JSON request with an API key or a bearer token; answers the status and the parsed body. */
export const send = async (
  port: number,
  method: string,
  path: string,
  auth: { readonly apiKey?: string; readonly bearer?: string },
  json?: unknown
): Promise<Answer & { readonly json: any }> => {
  const headers: Record<string, string> = {}
  if (auth.apiKey !== undefined) headers["x-api-key"] = auth.apiKey
  if (auth.bearer !== undefined) headers["authorization"] = `Bearer ${auth.bearer}`
  if (json !== undefined) headers["content-type"] = "application/json"
  const answer = await call(
    port,
    method,
    path,
    headers,
    json === undefined ? undefined : JSON.stringify(json)
  )
  let parsed: unknown = undefined
  try {
    parsed = answer.body === "" ? undefined : JSON.parse(answer.body)
  } catch {
    parsed = answer.body
  }
  return { ...answer, json: parsed }
}

/** Every page of a list (`limit=100`, `page` 1, 2, …), with the organization's key; each page must be 200. */
export const everyPage = async (port: number, path: string, apiKey: string): Promise<Array<any>> => {
  const items: Array<any> = []
  const join = path.includes("?") ? "&" : "?"
  for (let page = 1; ; page++) {
    const answer = await send(port, "GET", `${path}${join}limit=100&page=${page}`, { apiKey })
    if (answer.status !== 200) throw new Error(`GET ${path} page ${page} answered ${answer.status}`)
    items.push(...answer.json.items)
    if (page >= answer.json.total_pages) return items
  }
}
