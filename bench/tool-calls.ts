// Executor overhead: p50/p99 of one tool call through the engine (`POST /api/v1/tools/{uuid}/test`, which
// checks the arguments, builds the request, sends it through the guarded outbound client and picks the
// response fields) against the very same request made directly with `fetch` to the same local receiver,
// in one run. The bundled server (embedded database, fresh data directory, OUTBOUND_ALLOW_HOSTS=127.0.0.1)
// and the receiver each run in their own process group, stopped on every exit path. Bounded in count
// (TOOL_BENCH_CALLS, default 400, per side, sequential, after 40 warm-up calls) and in time (each call
// at most 10 s, the whole run at most 5 minutes); loopback only. Run: `npm run bench:tools`.
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const calls = Math.min(Number(process.env.TOOL_BENCH_CALLS ?? 400), 5000)
const warmUp = 40
const callTimeoutMs = 10_000
const runDeadlineMs = 5 * 60_000
const apiKey = `vap_${"T".repeat(40)}`

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

const children: Array<ChildProcess> = []

/** Stops every child's whole process group (the server may have started helpers of its own). */
const stopChildren = () => {
  for (const child of children) {
    if (child.pid === undefined || child.exitCode !== null) continue
    try {
      process.kill(-child.pid, "SIGTERM")
    } catch {
      // already gone
    }
  }
}
process.on("exit", stopChildren)
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    stopChildren()
    process.exit(1)
  })
}

/** Starts a Node process in its own process group and waits (at most 60 s) for `ready` in its output. */
const startProcess = async (args: ReadonlyArray<string>, env: Record<string, string>, ready: string) => {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true
  })
  children.push(child)
  let output = ""
  child.stdout!.on("data", (c) => (output += c))
  child.stderr!.on("data", (c) => (output += c))
  const deadline = Date.now() + 60_000
  while (!output.includes(ready)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`did not start:\n${output}`)
    await new Promise((r) => setTimeout(r, 50))
  }
  return child
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

/** Runs `call` sequentially `calls` times after the warm-up and answers the latencies, sorted. */
const measure = async (call: () => Promise<void>) => {
  for (let i = 0; i < warmUp; i++) await call()
  const latencies: Array<number> = []
  for (let i = 0; i < calls; i++) {
    const started = performance.now()
    await call()
    latencies.push(performance.now() - started)
  }
  return latencies.sort((a, b) => a - b)
}

const line = (name: string, sorted: ReadonlyArray<number>) =>
  `${name.padEnd(34)} p50 ${percentile(sorted, 50).toFixed(2).padStart(7)} ms   p99 ${percentile(sorted, 99).toFixed(2).padStart(7)} ms   (${sorted.length} calls)`

const dataDirectory = mkdtempSync(join(tmpdir(), "vap-tool-bench-"))
const runDeadline = setTimeout(() => {
  console.error(`the bench did not finish within ${runDeadlineMs / 1000} s`)
  process.exit(1)
}, runDeadlineMs)
try {
  const receiverPort = await freePort()
  const receiver = `const body = Buffer.from(JSON.stringify({ order: { id: 7, status: "shipped", items: [{ name: "pizza" }, { name: "cola" }] }, padding: "x".repeat(512) })); require("node:http").createServer((req, res) => { req.resume(); req.on("end", () => { res.writeHead(200, { "content-type": "application/json", "content-length": body.length }); res.end(body) }) }).listen(${receiverPort}, "127.0.0.1", () => console.log("receiver ready"))`
  await startProcess(["-e", receiver], {}, "receiver ready")

  const apiPort = await freePort()
  const main = fileURLToPath(new URL("../packages/http/src/server/main.ts", import.meta.url))
  // TOOL_BENCH_CPU_PROF=<directory>: the server writes a CPU profile there when it stops (node --cpu-prof).
  const profile = process.env.TOOL_BENCH_CPU_PROF
  await startProcess(
    [
      ...(profile === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${profile}`]),
      "--conditions=@voice-agent-platform/source",
      "--import",
      "tsx",
      main
    ],
    {
      PORT: String(apiPort),
      HOST: "127.0.0.1",
      BOOTSTRAP_API_KEY: apiKey,
      DATA_DIR: dataDirectory,
      OUTBOUND_ALLOW_HOSTS: "127.0.0.1"
    },
    "listening on"
  )
  const api = `http://127.0.0.1:${apiPort}/api/v1`
  const headers = { "x-api-key": apiKey, "content-type": "application/json" }
  const created = await fetch(`${api}/tools`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      name: "Order lookup",
      definition: {
        type: "http_api",
        config: {
          method: "GET",
          url: `http://127.0.0.1:${receiverPort}/orders/{{order_id}}`,
          parameters: [
            { name: "order_id", type: "string", description: "The order" },
            { name: "verbose", type: "boolean", description: "More detail", required: false }
          ],
          response_fields: ["order.status", "order.items.0.name"]
        }
      }
    }),
    signal: AbortSignal.timeout(callTimeoutMs)
  })
  if (created.status !== 200)
    throw new Error(`creating the tool answered ${created.status}: ${await created.text()}`)
  const toolUuid = ((await created.json()) as { tool_uuid: string }).tool_uuid

  const direct = async () => {
    const response = await fetch(`http://127.0.0.1:${receiverPort}/orders/A-17?verbose=true`, {
      signal: AbortSignal.timeout(callTimeoutMs)
    })
    const body = (await response.json()) as { order: { status: string } }
    if (response.status !== 200 || body.order.status !== "shipped")
      throw new Error("the receiver answered wrong")
  }
  const throughEngine = async () => {
    const response = await fetch(`${api}/tools/${toolUuid}/test`, {
      method: "POST",
      headers,
      body: JSON.stringify({ arguments: { order_id: "A-17", verbose: true } }),
      signal: AbortSignal.timeout(callTimeoutMs)
    })
    const body = (await response.json()) as { ok: boolean; response: Record<string, unknown> }
    if (response.status !== 200 || !body.ok || body.response["order.status"] !== "shipped") {
      throw new Error(`the tool call answered ${response.status}: ${JSON.stringify(body)}`)
    }
  }

  // The same API path without the tool call: authentication and reading the tool, for where the time goes.
  const readTool = async () => {
    const response = await fetch(`${api}/tools/${toolUuid}`, {
      headers,
      signal: AbortSignal.timeout(callTimeoutMs)
    })
    await response.arrayBuffer()
    if (response.status !== 200) throw new Error(`reading the tool answered ${response.status}`)
  }

  console.log(
    `GET tool against a local receiver (${calls} sequential calls each, after ${warmUp} warm-up calls)`
  )
  const baseline = await measure(direct)
  const engine = await measure(throughEngine)
  const read = await measure(readTool)
  console.log(line("direct fetch to the receiver", baseline))
  console.log(line("through the engine (test endpoint)", engine))
  console.log(line("GET /tools/{uuid} (no tool call)", read))
  console.log(
    `overhead: p50 +${(percentile(engine, 50) - percentile(baseline, 50)).toFixed(2)} ms, p99 +${(percentile(engine, 99) - percentile(baseline, 99)).toFixed(2)} ms`
  )
} finally {
  clearTimeout(runDeadline)
  stopChildren()
  await new Promise((resolve) => setTimeout(resolve, 1000))
  rmSync(dataDirectory, { recursive: true, force: true })
}
