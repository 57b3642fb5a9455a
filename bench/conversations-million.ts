// Benchmark: `GET /api/v1/agents/{agent_id}/conversations` over 1,000,000 runs of one agent, through the
// bundled server on PostgreSQL. Prints the median and p99 latency of the first page and of deep pages,
// each beside the same page read straight from the database with the plain `pg` driver and the obvious
// SQL (count, then ORDER BY ... LIMIT ... OFFSET), measured in the same run. Requests go one at a time,
// so the figures are latencies, not throughput.
//
// Run: `npm run bench:million` (uses the PostgreSQL server at TEST_DATABASE_URL, by default the
// machine's 127.0.0.1:5432, in a database of its own that is dropped afterwards; BENCH_RUNS changes the
// number of runs, BENCH_SECONDS the time spent on each page).
import { TestDatabase } from "@voice-agent-platform/pg/testing"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { request } from "node:http"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import pg from "pg"
import { load, type LoadResult } from "./LoadGenerator.js"

const runCount = Number(process.env.BENCH_RUNS ?? 1_000_000)
const seconds = Number(process.env.BENCH_SECONDS ?? 5)
const apiKey = `vap_${"M".repeat(40)}`
const limit = 50

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

const startServer = async (env: Record<string, string>) => {
  const main = fileURLToPath(new URL("../packages/http/src/server/main.ts", import.meta.url))
  const child = spawn(
    process.execPath,
    ["--conditions=@voice-agent-platform/source", "--import", "tsx", main],
    {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"]
    }
  )
  let output = ""
  child.stdout!.on("data", (c) => (output += c))
  child.stderr!.on("data", (c) => (output += c))
  const deadline = Date.now() + 60_000
  while (!output.includes("listening on")) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`did not start:\n${output}`)
    await new Promise((r) => setTimeout(r, 50))
  }
  return { child, output: () => output }
}

const post = (port: number, path: string, body: unknown) =>
  new Promise<any>((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path,
        headers: { "x-api-key": apiKey, "content-type": "application/json" }
      },
      (res) => {
        let text = ""
        res.on("data", (c) => (text += c))
        res.on("end", () => resolve(JSON.parse(text)))
      }
    )
    req.on("error", reject)
    req.end(JSON.stringify(body))
  })

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

/** The same page read with the plain driver, one query after the other, for `seconds`. */
const directly = async (client: pg.Client, organizationId: number, agentId: number, page: number) => {
  const latencies: Array<number> = []
  const until = performance.now() + seconds * 1000
  while (performance.now() < until) {
    const started = performance.now()
    await client.query("SELECT count(*) FROM runs WHERE organization_id = $1 AND workflow_id = $2", [
      organizationId,
      agentId
    ])
    await client.query(
      `SELECT * FROM runs WHERE organization_id = $1 AND workflow_id = $2
       ORDER BY created_at DESC, workflow_run_id DESC LIMIT $3 OFFSET $4`,
      [organizationId, agentId, limit, (page - 1) * limit]
    )
    latencies.push(performance.now() - started)
  }
  latencies.sort((a, b) => a - b)
  return { p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99), requests: latencies.length }
}

const ms = (value: number) => `${value.toFixed(2).padStart(8)} ms`

const dataDirectory = mkdtempSync(join(tmpdir(), "vap-bench-"))
const database = await TestDatabase.createDatabase()
const url = TestDatabase.databaseUrl(database)
const children: Array<ChildProcess> = []
const client = new pg.Client({ connectionString: url })
try {
  const port = await freePort()
  const server = await startServer({
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDirectory,
    DATABASE_URL: url,
    ENCRYPTION_KEY: "the-benchmark-encryption-key-0123456789",
    BOOTSTRAP_API_KEY: apiKey
  })
  children.push(server.child)
  const organizationId = Number(/organization (\d+)/.exec(server.output())![1])
  const agent = await post(port, "/api/v1/agents/from-script", { agent: { greeting: "Hello" } })

  // Fill the runs in bulk, a minute apart, as ended calls with a transcript and a recording.
  await client.connect()
  const filling = performance.now()
  for (let from = 1; from <= runCount; from += 250_000) {
    const to = Math.min(runCount, from + 250_000 - 1)
    await client.query(
      `INSERT INTO runs (workflow_id, organization_id, mode, status, name, phone_number, initial_context,
         gathered_context, duration_seconds, cost, currency, disposition, campaign_id, trigger_id, logs, sms,
         integration_deliveries, files, channel_reservation_id, created_at, ended_at)
       SELECT $1::bigint, $2::bigint, 'phone', 'completed', NULL, '+48500100200',
         jsonb_build_object('phone_number', '+48500100200', 'customer', 'Customer ' || n),
         jsonb_build_object('appointment', 'tomorrow'), 95, 50, 'PLN', 'booked', NULL, NULL,
         jsonb_build_array(jsonb_build_object('timestamp', '2026-01-01T10:00:00.000Z', 'level', 'info',
           'message', 'call ended')),
         '[]'::jsonb, '[]'::jsonb,
         jsonb_build_object('recording', 'organizations/' || $2::text || '/runs/' || n || '/recording.wav',
           'transcript', 'organizations/' || $2::text || '/runs/' || n || '/transcript.txt'),
         NULL, timestamptz '2026-01-01' - make_interval(mins => ${runCount} - n),
         timestamptz '2026-01-01' - make_interval(mins => ${runCount} - n) + interval '95 seconds'
       FROM generate_series($3::int, $4::int) AS n`,
      [agent.id, organizationId, from, to]
    )
  }
  await client.query("VACUUM ANALYZE runs")
  const filled = ((performance.now() - filling) / 1000).toFixed(1)
  console.log(
    `${runCount.toLocaleString("en")} runs of one agent filled in ${filled} s (bulk INSERT ... SELECT)`
  )

  const lastPage = Math.ceil(runCount / limit)
  const pages = [
    { name: "first page", page: 1 },
    { name: "deep page (middle)", page: Math.ceil(lastPage / 2) },
    { name: "deep page (last)", page: lastPage }
  ]
  console.log(`limit ${limit}, one request at a time, ${seconds} s per measurement\n`)
  console.log(
    `${"page".padEnd(26)} ${"HTTP p50".padStart(11)} ${"HTTP p99".padStart(11)}   ${"SQL p50".padStart(11)} ${"SQL p99".padStart(11)}   ratio p50  ratio p99`
  )
  for (const { name, page } of pages) {
    const path = `/api/v1/agents/${agent.public_id}/conversations?page=${page}&limit=${limit}`
    await load({ port, path, headers: { "x-api-key": apiKey }, concurrency: 1, seconds: 1 })
    const api: LoadResult = await load({
      port,
      path,
      headers: { "x-api-key": apiKey },
      concurrency: 1,
      seconds
    })
    if (api.errors > 0) throw new Error(`${api.errors} requests failed on ${path}`)
    await directly(client, organizationId, agent.id, page)
    const sql = await directly(client, organizationId, agent.id, page)
    console.log(
      `${`${name} (${page})`.padEnd(26)} ${ms(api.p50Ms)} ${ms(api.p99Ms)}   ${ms(sql.p50Ms)} ${ms(sql.p99Ms)}   ${(api.p50Ms / sql.p50Ms).toFixed(2).padStart(8)}x ${(api.p99Ms / sql.p99Ms).toFixed(2).padStart(9)}x`
    )
  }
} finally {
  for (const child of children) child.kill("SIGTERM")
  await client.end().catch(() => undefined)
  await new Promise((r) => setTimeout(r, 1000))
  if (!process.env.BENCH_KEEP_DATABASE) await TestDatabase.dropDatabase(database)
  rmSync(dataDirectory, { recursive: true, force: true })
}
