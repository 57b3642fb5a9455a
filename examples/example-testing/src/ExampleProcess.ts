// Starts an example the way its `npm start` does, in a process group of its own, on a free loopback port.
import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:net"
import { fileURLToPath } from "node:url"

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

const signalGroup = (child: ChildProcess, signal: NodeJS.Signals) => {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
  try {
    process.kill(-child.pid, signal)
  } catch {
    // the group is gone already
  }
}

/** A started example: its base URL, what it printed, and how to stop it (SIGTERM, SIGKILL 10 s later). */
export interface Started {
  readonly url: string
  readonly output: () => string
  readonly stop: () => Promise<void>
}

/**
 * Starts `script` (relative to `example`, the example's folder: `new URL("..", import.meta.url)` from its
 * tests) under tsx on the workspace's sources.
 */
export const startExample = async (
  example: URL,
  env: Record<string, string> = {},
  script = "src/main.ts"
): Promise<Started> => {
  const port = await freePort()
  const child = spawn(
    process.execPath,
    ["--conditions=@voice-agent-platform/source", "--import", "tsx", fileURLToPath(new URL(script, example))],
    { env: { ...process.env, ...env, PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"], detached: true }
  )
  const killOnExit = () => signalGroup(child, "SIGKILL")
  process.once("exit", killOnExit)
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  void exited.then(() => process.off("exit", killOnExit))
  let output = ""
  child.stdout!.on("data", (chunk) => (output += chunk))
  child.stderr!.on("data", (chunk) => (output += chunk))
  const stop = async () => {
    signalGroup(child, "SIGTERM")
    const kill = setTimeout(() => signalGroup(child, "SIGKILL"), 10_000)
    await exited
    clearTimeout(kill)
  }
  const deadline = Date.now() + 60_000
  while (!/listening on/i.test(output)) {
    if (Date.now() > deadline || child.exitCode !== null || child.signalCode !== null) {
      await stop()
      throw new Error(`the example did not start:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return { url: `http://127.0.0.1:${port}`, output: () => output, stop }
}
