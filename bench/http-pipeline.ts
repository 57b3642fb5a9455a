// Benchmark: the engine's fixed cost per request, apart from any page or row. In ONE run, each server in
// its own process group pinned to core 0 (`taskset`, when there is one), the load from this process on
// core 1: bare node:http answering the bytes of an agent; node:http running an Effect fiber a request that
// answers them (bench/fiber-per-request-server.ts: the floor of a request path of the engine's own); a bare
// `@effect/platform` router app answering the same bytes (bench/bare-platform-server.ts); the engine on PostgreSQL answering `GET /health` (no key, no
// database), `GET /api/v1/agents/no-such-agent` (a 404 after the API key is found in the lookups cache,
// past its batched fence round trip: no statement of its own) and `GET /api/v1/agents/{agent_id}` (the
// agent cached, its definition and run count read: two statements), each on an engine of its own. Prints req/s, p50, p99, and the server's CPU time per answer
// (from /proc: unlike req/s, it hardly depends on what else the shared machine runs), and the ratios. The engine runs as `npm start` runs it (built
// first). Run: `npm run bench:pipeline`
// (BENCH_SECONDS per server, default 6; BENCH_CONCURRENCY, default 32; TEST_DATABASE_URL: the PostgreSQL
// server, where a database of its own is made and dropped; BENCH_PROFILE=<directory>: the engine writes a
// `--cpu-prof` profile there, see bench/profile-summary.ts).
import { TestDatabase } from "@voice-agent-platform/pg/testing"
import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { load, type LoadResult } from "./LoadGenerator.js"
import * as ServerProcess from "./ServerProcess.js"

const seconds = Number(process.env.BENCH_SECONDS ?? 6)
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32)
const apiKey = `vap_${"C".repeat(40)}`
const headers = { "x-api-key": apiKey }
const pinned = ServerProcess.pinLoad()

console.log("npm run build (as npm start does first)")
execFileSync("npm", ["run", "build", "--silent"], {
  cwd: fileURLToPath(new URL("..", import.meta.url)),
  stdio: "inherit",
  timeout: 600_000
})
const profile = process.env.BENCH_PROFILE
const engineArgs = (start: string) => [
  ...(profile === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${profile}`]),
  start
]
const engine = engineArgs(fileURLToPath(new URL("../packages/http/dist/bundle/start.js", import.meta.url)))
// BENCH_BEFORE=<a bundle's start.js> (a copy of packages/http/dist/bundle built from an earlier commit):
// every engine case runs on it too, right after this build's, for before/after figures from one run.
const before = process.env.BENCH_BEFORE === undefined ? undefined : engineArgs(process.env.BENCH_BEFORE)
const engines = [
  { label: "engine", args: engine },
  ...(before === undefined ? [] : [{ label: "before", args: before }])
]

interface Measured {
  readonly result: LoadResult
  /** The server's CPU time per answer (µs), when `/proc` tells it. */
  readonly cpu: number | undefined
}

/** Warms a server up for a second, then measures it: throughput, latency, and its CPU per answer. */
const measure = async (
  server: { readonly port: number; readonly child: { readonly pid?: number | undefined } },
  path: string,
  withKey: boolean,
  status = 200
): Promise<Measured> => {
  const options = { port: server.port, path, headers: withKey ? headers : {}, concurrency, status }
  await load({ ...options, seconds: 1 })
  const before = ServerProcess.cpuMicros(server.child.pid!)
  const result = await load({ ...options, seconds })
  const after = ServerProcess.cpuMicros(server.child.pid!)
  const answers = result.requests + result.errors
  return {
    result,
    cpu: before === undefined || after === undefined || answers === 0 ? undefined : (after - before) / answers
  }
}

const rows: Array<{ readonly name: string } & Measured> = []
const dataDirectory = mkdtempSync(join(tmpdir(), "vap-bench-pipeline-"))
const database = await TestDatabase.createDatabase()
try {
  const engineEnv = {
    DATA_DIR: dataDirectory,
    DATABASE_URL: TestDatabase.databaseUrl(database),
    ENCRYPTION_KEY: "the-benchmark-encryption-key-0123456789",
    BOOTSTRAP_API_KEY: apiKey
  }
  // The agent is made once; each case then runs on a server of its own (a profile of its own).
  const maker = await ServerProcess.launch(engine, engineEnv, "/health", pinned)
  const created = await ServerProcess.call(maker.port, "POST", "/api/v1/agents/from-script", headers, {
    agent: { greeting: "Hello" }
  })
  if (created.status !== 201 && created.status !== 200)
    throw new Error(`the agent was not made (${created.status}): ${created.text}`)
  const agentPath = `/api/v1/agents/${JSON.parse(created.text).public_id}`
  const agent = await ServerProcess.call(maker.port, "GET", agentPath, headers)
  if (agent.status !== 200) throw new Error(`the agent answered ${agent.status}: ${agent.text}`)
  await ServerProcess.stop(maker.child)
  const cases = [
    { name: "engine GET /health", path: "/health", withKey: false, status: 200 },
    // authenticated (the key from the lookups cache), then a 404 the handler answers without a statement
    {
      name: "engine GET /agents/{malformed} 404",
      path: "/api/v1/agents/no-such-agent",
      withKey: true,
      status: 404
    },
    // authenticated, the agent cached, its definition and run count read (two statements)
    { name: "engine GET /agents/{id}", path: agentPath, withKey: true, status: 200 }
  ]
  for (const { name, path, status, withKey } of cases) {
    for (const { args, label } of engines) {
      const server = await ServerProcess.launch(args, engineEnv, "/health", pinned)
      const probe = await ServerProcess.call(server.port, "GET", path, withKey ? headers : {})
      if (probe.status !== status) throw new Error(`${path} answered ${probe.status}: ${probe.text}`)
      rows.push({ name: name.replace("engine", label), ...(await measure(server, path, withKey, status)) })
      await ServerProcess.stop(server.child)
    }
  }

  const bareSource = `const body = Buffer.from(process.env.BODY); require("node:http").createServer((req, res) => { res.writeHead(200, { "content-type": "application/json", "content-length": body.length }); res.end(body) }).listen(Number(process.env.PORT), "127.0.0.1")`
  const bareServer = await ServerProcess.launch(["-e", bareSource], { BODY: agent.text }, agentPath, pinned)
  rows.unshift({ name: "bare node:http", ...(await measure(bareServer, agentPath, true)) })
  await ServerProcess.stop(bareServer.child)

  const platform = await ServerProcess.launch(
    ServerProcess.tsx(new URL("./bare-platform-server.ts", import.meta.url)),
    { BODY: agent.text },
    agentPath,
    pinned
  )
  rows.splice(1, 0, { name: "bare @effect/platform router", ...(await measure(platform, agentPath, true)) })
  await ServerProcess.stop(platform.child)
  const fiber = await ServerProcess.launch(
    ServerProcess.tsx(new URL("./fiber-per-request-server.ts", import.meta.url)),
    { BODY: agent.text },
    agentPath,
    pinned
  )
  rows.splice(1, 0, {
    name: "node:http, an Effect fiber a request",
    ...(await measure(fiber, agentPath, true))
  })
  await ServerProcess.stop(fiber.child)

  console.log(
    `${agent.text.length}-byte answer, ${concurrency} connections, ${seconds} s each` +
      (pinned ? ", servers on core 0, load on core 1" : " (taskset missing: not pinned)")
  )
  const cpuText = (cpu: number | undefined) => (cpu === undefined ? "    ?" : cpu.toFixed(0).padStart(5))
  for (const { cpu, name, result } of rows) {
    console.log(
      `${name.padEnd(36)} ${result.requestsPerSecond.toFixed(0).padStart(7)} req/s  CPU ${cpuText(cpu)} µs/answer  p50 ${result.p50Ms.toFixed(2).padStart(6)} ms  p99 ${result.p99Ms.toFixed(2).padStart(6)} ms  ${String(result.errors).padStart(3)} errors`
    )
  }
  const bare = rows[0]!
  for (const { cpu, name, result } of rows.slice(1)) {
    const extra = cpu === undefined || bare.cpu === undefined ? "?" : (cpu - bare.cpu).toFixed(0)
    console.log(
      `${name.padEnd(36)} ${(result.requestsPerSecond / bare.result.requestsPerSecond).toFixed(3)}x bare node:http's req/s, CPU +${extra} µs/answer`
    )
  }
} finally {
  await ServerProcess.stopAll()
  await TestDatabase.dropDatabase(database).catch(() => undefined)
  rmSync(dataDirectory, { recursive: true, force: true })
}
