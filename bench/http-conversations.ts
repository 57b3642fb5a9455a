// Benchmark: the authenticated `GET /api/v1/agents/{agent_id}/conversations` page (50 runs, the embedded
// database in a fresh data directory) through the bundled server, against a bare node:http server answering the same JSON bytes,
// measured in the same run. Prints requests/s, p50 and p99, and the ratio. Run: `npm run bench:http`.
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { request } from "node:http"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { load, type LoadResult } from "./LoadGenerator.js"

const seconds = Number(process.env.BENCH_SECONDS ?? 8)
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32)
const apiKey = `vap_${"B".repeat(40)}`

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

const startProcess = async (args: ReadonlyArray<string>, env: Record<string, string>, ready: string) => {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
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

const call = (port: number, method: string, path: string, body?: unknown) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        headers: { "x-api-key": apiKey, "content-type": "application/json" }
      },
      (res) => {
        let text = ""
        res.on("data", (c) => (text += c))
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }))
      }
    )
    req.on("error", reject)
    req.end(body === undefined ? undefined : JSON.stringify(body))
  })

const line = (name: string, r: LoadResult) =>
  `${name.padEnd(28)} ${r.requestsPerSecond.toFixed(0).padStart(8)} req/s   p50 ${r.p50Ms.toFixed(2).padStart(7)} ms   p99 ${r.p99Ms.toFixed(2).padStart(7)} ms   (${r.requests} ok, ${r.errors} errors)`

const dataDirectory = mkdtempSync(join(tmpdir(), "vap-bench-"))
const children: Array<ChildProcess> = []
try {
  const apiPort = await freePort()
  const main = fileURLToPath(new URL("../packages/http/src/server/main.ts", import.meta.url))
  children.push(
    await startProcess(
      ["--conditions=@voice-agent-platform/source", "--import", "tsx", main],
      {
        PORT: String(apiPort),
        HOST: "127.0.0.1",
        BOOTSTRAP_API_KEY: apiKey,
        DATA_DIR: dataDirectory
      },
      "listening on"
    )
  )
  const agent = JSON.parse(
    (await call(apiPort, "POST", "/api/v1/agents/from-script", { agent: { greeting: "Hello" } })).text
  )
  for (let i = 0; i < 60; i++) {
    await call(apiPort, "POST", `/api/v1/agents/${agent.public_id}/conversations`, {
      mode: "chat",
      initial_context: { customer: `Customer ${i}`, phone_number: "+48500000100" }
    })
  }
  const path = `/api/v1/agents/${agent.public_id}/conversations?page=1&limit=50`
  const page = await call(apiPort, "GET", path)
  if (page.status !== 200) throw new Error(`the list answered ${page.status}: ${page.text}`)

  const barePort = await freePort()
  const bare = `const body = Buffer.from(process.env.BODY); require("node:http").createServer((req, res) => { res.writeHead(200, { "content-type": "application/json", "content-length": body.length }); res.end(body) }).listen(${barePort}, "127.0.0.1", () => console.log("bare ready"))`
  children.push(await startProcess(["-e", bare], { BODY: page.text }, "bare ready"))

  console.log(
    `GET ${path.replace(agent.public_id, "{agent_id}")}: ${page.text.length} bytes, ${concurrency} connections, ${seconds} s each`
  )
  // Warm both up, then measure.
  await load({ port: barePort, path, concurrency, seconds: 1 })
  await load({ port: apiPort, path, headers: { "x-api-key": apiKey }, concurrency, seconds: 1 })
  const baseline = await load({ port: barePort, path, concurrency, seconds })
  const api = await load({ port: apiPort, path, headers: { "x-api-key": apiKey }, concurrency, seconds })
  console.log(line("bare node:http (baseline)", baseline))
  console.log(line("engine (embedded PostgreSQL)", api))
  console.log(
    `ratio engine / baseline: throughput ${(api.requestsPerSecond / baseline.requestsPerSecond).toFixed(2)}x, p99 ${(api.p99Ms / baseline.p99Ms).toFixed(2)}x`
  )
} finally {
  for (const child of children) child.kill("SIGTERM")
  await new Promise((resolve) => setTimeout(resolve, 1000))
  rmSync(dataDirectory, { recursive: true, force: true })
}
