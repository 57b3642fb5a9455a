// Servers launched by a bench: each in its own process group (on core 0 when `taskset` pins it), stopped
// with its group on every exit path, spoken to over loopback only.
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { request } from "node:http"
import { createServer } from "node:net"
import { fileURLToPath } from "node:url"

/** Pins this process (the load) to core 1; answers whether servers can be pinned to core 0. */
export const pinLoad = (): boolean => {
  try {
    execFileSync("taskset", ["-cp", "1", String(process.pid)], { stdio: "ignore" })
    return true
  } catch {
    return false
  }
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

/** One request, its status and text; bounded by 30 s. */
export const call = (
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown
) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, method, path, headers: { ...headers, "content-type": "application/json" } },
      (res) => {
        let text = ""
        res.on("data", (c) => (text += c))
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }))
      }
    )
    req.setTimeout(30_000, () => req.destroy(new Error("no answer in 30 s")))
    req.on("error", reject)
    req.end(body === undefined ? undefined : JSON.stringify(body))
  })

const children = new Set<ChildProcess>()

/** Whether any process of the group led by `pid` is still there. */
const groupAlive = (pid: number) => {
  try {
    process.kill(-pid, 0)
    return true
  } catch {
    return false
  }
}

/** Resumes once the group led by `pid` is gone, or after `ms`. */
const groupGone = async (pid: number, ms: number) => {
  const deadline = Date.now() + ms
  while (groupAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
}

/**
 * Stops a server's whole process group and waits for every process of it to end (bounded): a server
 * started through `npm start` is npm, a shell and node, and npm exits before node has let go of its
 * data directory.
 */
export const stop = async (child: ChildProcess) => {
  const pid = child.pid
  if (pid !== undefined) {
    try {
      process.kill(-pid, "SIGTERM")
    } catch {}
    await groupGone(pid, 5000)
    try {
      process.kill(-pid, "SIGKILL")
    } catch {}
    await groupGone(pid, 5000)
  }
  children.delete(child)
}

/** Stops every server still running. */
export const stopAll = async () => {
  for (const child of children) await stop(child)
}

/** Kills every server's group at once, without waiting (for a process's `exit` handler). */
export const killAll = () => {
  for (const child of children) {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) continue
    try {
      process.kill(-child.pid, "SIGKILL")
    } catch {}
  }
}

/** `node` arguments running a TypeScript file through tsx, the workspace's sources resolved. */
export const tsx = (file: URL) => [
  "--conditions=@voice-agent-platform/source",
  "--import",
  "tsx",
  fileURLToPath(file)
]

/**
 * Launches `node <args>` in its own process group (on core 0 when `pinned`), once it answers `probe`
 * (asked with `probeHeaders`); `startSeconds`: from launch to that first answer, whatever its status.
 */
export const launch = (
  args: ReadonlyArray<string>,
  env: Record<string, string>,
  probe: string,
  pinned: boolean,
  probeHeaders: Record<string, string> = {}
) =>
  pinned
    ? launchCommand("taskset", ["-c", "0", process.execPath, ...args], undefined, env, probe, probeHeaders)
    : launchCommand(process.execPath, args, undefined, env, probe, probeHeaders)

/**
 * Launches `command` (in `cwd`) in its own process group with `PORT` and `HOST` set, once it answers
 * `probe`; `startSeconds`: from launch to that first answer, whatever its status.
 */
export const launchCommand = async (
  command: string,
  args: ReadonlyArray<string>,
  cwd: string | undefined,
  env: Record<string, string>,
  probe: string,
  probeHeaders: Record<string, string> = {}
) => {
  const port = await freePort()
  const launched = performance.now()
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true
  })
  children.add(child)
  let output = ""
  child.stdout!.on("data", (c) => (output += c))
  child.stderr!.on("data", (c) => (output += c))
  const deadline = Date.now() + 90_000
  for (;;) {
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop(child)
      throw new Error(`did not answer:\n${output}`)
    }
    const answered = await call(port, "GET", probe, probeHeaders).then(
      () => true,
      () => false
    )
    if (answered)
      return { child, port, startSeconds: (performance.now() - launched) / 1000, output: () => output }
    await new Promise((r) => setTimeout(r, 10))
  }
}

const ticksPerSecond = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100
  } catch {
    return 100
  }
})()

/**
 * The CPU time (user and system, in µs) a process has used so far, from `/proc` (Linux; undefined
 * elsewhere). A server's CPU per request does not depend on what else the machine runs, unlike req/s.
 */
export const cpuMicros = (pid: number): number | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / ticksPerSecond
  } catch {
    return undefined
  }
}

/**
 * Above this share of its one core a pinned server is saturated: requests wait for the core, so their
 * latencies are mostly queueing, not work (bench:voice and bench:chat say so beside their figures).
 */
export const saturatedAbove = 0.9
