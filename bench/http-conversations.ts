// Benchmark: the authenticated first page (50 runs) of `GET /api/v1/agents/{agent_id}/conversations`, in
// ONE run, on five servers: bare node:http answering the engine's page bytes; a hand-written node:http +
// `pg` server (bench/handwritten-pg-server.ts, the four obvious statements); the engine on PostgreSQL
// (`DATABASE_URL`); a hand-written node:http + PGlite server in process (bench/handwritten-pglite-server.ts);
// the engine on the embedded database (`npm start`'s default). The engines run as `npm start` runs them
// (`npm run build` first, then the compiled bundle). Every server runs in its own process
// group pinned to core 0 (`taskset`, when there is one), the load from this process pinned to core 1.
// Prints req/s, the server process's CPU time per answer (from /proc; not PostgreSQL's), p50, p99, start to
// first answer, and the ratios. Each server (but bare node:http) is measured
// three times: every connection asking the same page (identical reads may share one statement), every
// connection asking a different page (`limit` 40, 41, … 71: no two alike, so nothing can be shared; 40 to
// 60 runs a page), and users' traffic (bench/MixedTraffic.ts: 4 more organizations × 5 agents × 60 runs,
// every request a random key, agent, page 1–2 and limit 10/20/50; issue #28). Run: `npm run bench:http`
// (BENCH_SECONDS per server, default 6; BENCH_CONCURRENCY, default 32, at most 61: `limit` stops at 100,
// so more connections could not each ask a different page; TEST_DATABASE_URL: the
// PostgreSQL server, default 127.0.0.1:5432, where a database of its own is made and dropped;
// BENCH_DATABASES=postgres or embedded: only that pair (default both);
// BENCH_PROFILE=<directory>: the engines write `--cpu-prof` profiles there, see bench/profile-summary.ts).
import { TestDatabase } from "@voice-agent-platform/pg/testing"
import { execFileSync } from "node:child_process"
import { isDeepStrictEqual } from "node:util"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { load, type LoadResult } from "./LoadGenerator.js"
import * as MixedTraffic from "./MixedTraffic.js"
import * as ServerProcess from "./ServerProcess.js"
import { pinLoad, stop, stopAll } from "./ServerProcess.js"

const seconds = Number(process.env.BENCH_SECONDS ?? 6)
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32)
// the different pages' case has `limit` 40 … 100 only: 61 pages, one a connection
if (!(concurrency >= 1 && concurrency <= 61)) {
  console.error(`BENCH_CONCURRENCY must be 1 to 61 (one different page a connection), not ${concurrency}`)
  process.exit(2)
}
const databases = (process.env.BENCH_DATABASES ?? "postgres,embedded").split(",")
const apiKey = `vap_${"B".repeat(40)}`
const encryptionKey = "the-benchmark-encryption-key-0123456789"
const adminToken = "the-benchmark-operator-token-0123456789"
const headers = { "x-api-key": apiKey }

const pinnable = pinLoad()

/** One request with the bench's API key. */
const call = (port: number, method: string, path: string, body?: unknown) =>
  ServerProcess.call(port, method, path, headers, body)

/** Launches `node <args>` on core 0 in its own process group; measures until it answers `probe`. */
const launch = (args: ReadonlyArray<string>, env: Record<string, string>, probe: string) =>
  ServerProcess.launch(args, env, probe, pinnable, headers)

const tsx = (file: string) => ServerProcess.tsx(new URL(file, import.meta.url))
const profile = process.env.BENCH_PROFILE
// The engine runs as `npm start` runs it: built first, then the compiled server bundle.
console.log("npm run build (as npm start does first)")
execFileSync("npm", ["run", "build", "--silent"], {
  cwd: fileURLToPath(new URL("..", import.meta.url)),
  stdio: "inherit",
  timeout: 600_000
})
const engine = [
  ...(profile === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${profile}`]),
  fileURLToPath(new URL("../packages/http/dist/bundle/start.js", import.meta.url))
]

/** An agent with 60 chat runs, made through the API; answers the page's path. */
const seed = async (port: number) => {
  const agent = JSON.parse(
    (await call(port, "POST", "/api/v1/agents/from-script", { agent: { greeting: "Hello" } })).text
  )
  for (let i = 0; i < 60; i++) {
    await call(port, "POST", `/api/v1/agents/${agent.public_id}/conversations`, {
      mode: "chat",
      initial_context: { customer: `Customer ${i}`, phone_number: "+48500000100" }
    })
  }
  return `/api/v1/agents/${agent.public_id}/conversations?page=1&limit=50`
}

/** A load run and the server process's CPU time per answer (µs; not the database server's). */
type Measured = LoadResult & { readonly cpu: number | undefined }

/**
 * Warms the server up for a second, then measures it (`paths`: one a connection; `mixed`: users'
 * traffic, every request choosing its organization, agent, page and size, the same sequence each time).
 */
const measure = async (
  server: { readonly port: number; readonly child: { readonly pid?: number | undefined } },
  path: string,
  paths?: ReadonlyArray<string>,
  mixed?: ReadonlyArray<MixedTraffic.Tenant>
): Promise<Measured> => {
  const options = {
    port: server.port,
    path,
    headers,
    concurrency,
    ...(paths === undefined ? {} : { paths }),
    ...(mixed === undefined ? {} : { next: MixedTraffic.requests(mixed) })
  }
  await load({ ...options, seconds: 1 })
  const pid = server.child.pid
  const before = pid === undefined ? undefined : ServerProcess.cpuMicros(pid)
  const result = await load({ ...options, seconds })
  const after = pid === undefined ? undefined : ServerProcess.cpuMicros(pid)
  const cpu =
    before === undefined || after === undefined || result.requests === 0
      ? undefined
      : (after - before) / result.requests
  return { ...result, cpu }
}

/** One path a connection, no two alike: the same first page with `limit` 40, 41, … (at most 100). */
const distinctPaths = (path: string) =>
  Array.from({ length: concurrency }, (_, i) => path.replace("limit=50", `limit=${40 + i}`))

/** Measures the server on the one page, on a different page a connection, then on users' traffic. */
const measureAll = async (
  server: Parameters<typeof measure>[0],
  path: string,
  tenants: ReadonlyArray<MixedTraffic.Tenant>
) => ({
  result: await measure(server, path),
  distinct: await measure(server, path, distinctPaths(path)),
  mixed: await measure(server, path, undefined, tenants)
})

/** Every page of users' traffic must be the same on `port` as on the engine's `expected`. */
const sameMixedPages = async (
  port: number,
  expected: ReadonlyMap<string, string>,
  tenants: ReadonlyArray<MixedTraffic.Tenant>,
  who: string
) => {
  for (const { path, headers } of MixedTraffic.everyRequest(tenants)) {
    const page = await ServerProcess.call(port, "GET", path, headers)
    if (page.status !== 200 || !isDeepStrictEqual(JSON.parse(page.text), JSON.parse(expected.get(path)!)))
      throw new Error(
        `${who} answered a different page for ${path} (${page.status}): ${page.text.slice(0, 300)}`
      )
  }
}

/** The engine's answer to every request of users' traffic, by path. */
const mixedPages = async (port: number, tenants: ReadonlyArray<MixedTraffic.Tenant>) => {
  const pages = new Map<string, string>()
  for (const { path, headers } of MixedTraffic.everyRequest(tenants)) {
    const page = await ServerProcess.call(port, "GET", path, headers)
    if (page.status !== 200) throw new Error(`${path} answered ${page.status}: ${page.text.slice(0, 300)}`)
    pages.set(path, page.text)
  }
  return pages
}

/** The server's page must be the engine's page, else the comparison means nothing. */
const samePage = async (port: number, path: string, expected: string, who: string) => {
  const page = await call(port, "GET", path)
  if (page.status !== 200 || !isDeepStrictEqual(JSON.parse(page.text), JSON.parse(expected)))
    throw new Error(`${who} answered a different page (${page.status}): ${page.text.slice(0, 300)}`)
}

interface Row {
  readonly name: string
  readonly result: Measured
  /** Every connection asking a different page (absent for bare node:http). */
  readonly distinct?: Measured
  /** Users' traffic: organizations, agents, pages and sizes chosen at random (absent for bare node:http). */
  readonly mixed?: Measured
  readonly start: string
}

const dataDirectory = mkdtempSync(join(tmpdir(), "vap-bench-"))
const database = await TestDatabase.createDatabase()
const databaseUrl = TestDatabase.databaseUrl(database)
const rows: Array<Row> = []
const fmt = (s: number) => `${s.toFixed(2)} s`
let page: { readonly status: number; readonly text: string } | undefined
let path = ""
try {
  // PostgreSQL: the engine on a new database, then the hand-written server on the same data.
  if (databases.includes("postgres")) {
    const pgEngine = await launch(
      engine,
      {
        DATA_DIR: join(dataDirectory, "pg-files"),
        DATABASE_URL: databaseUrl,
        ENCRYPTION_KEY: encryptionKey,
        BOOTSTRAP_API_KEY: apiKey,
        ADMIN_TOKEN: adminToken
      },
      "/health"
    )
    const pgPath = await seed(pgEngine.port)
    const pgTenants = await MixedTraffic.seed(pgEngine.port, adminToken)
    const pgMixedPages = await mixedPages(pgEngine.port, pgTenants)
    const pgPage = await call(pgEngine.port, "GET", pgPath)
    if (pgPage.status !== 200) throw new Error(`the list answered ${pgPage.status}: ${pgPage.text}`)
    const pgDistinctPath = distinctPaths(pgPath)[concurrency - 1]!
    const pgDistinctPage = await call(pgEngine.port, "GET", pgDistinctPath)
    const pgEngineResult = await measureAll(pgEngine, pgPath, pgTenants)
    await stop(pgEngine.child)
    const pgEngineAgain = await launch(
      engine,
      { DATA_DIR: join(dataDirectory, "pg-files"), DATABASE_URL: databaseUrl, ENCRYPTION_KEY: encryptionKey },
      pgPath
    )
    await stop(pgEngineAgain.child)
    const handPg = await launch(tsx("./handwritten-pg-server.ts"), { DATABASE_URL: databaseUrl }, pgPath)
    await samePage(handPg.port, pgPath, pgPage.text, "the hand-written pg server")
    await samePage(handPg.port, pgDistinctPath, pgDistinctPage.text, "the hand-written pg server")
    await sameMixedPages(handPg.port, pgMixedPages, pgTenants, "the hand-written pg server")
    rows.push({
      name: "hand-written node:http + pg",
      ...(await measureAll(handPg, pgPath, pgTenants)),
      start: fmt(handPg.startSeconds)
    })
    await stop(handPg.child)
    rows.push({
      name: "engine on PostgreSQL",
      ...pgEngineResult,
      start: `${fmt(pgEngineAgain.startSeconds)} (${fmt(pgEngine.startSeconds)} new database)`
    })
    page = pgPage
    path = pgPath
  }

  // The embedded database: the engine on a new data directory, again on the existing one, then the
  // hand-written PGlite server on that directory (and once on an empty one: initdb).
  if (databases.includes("embedded")) {
    const embeddedEnv = {
      DATA_DIR: join(dataDirectory, "embedded"),
      BOOTSTRAP_API_KEY: apiKey,
      ADMIN_TOKEN: adminToken
    }
    const embedded = await launch(engine, embeddedEnv, "/health")
    path = await seed(embedded.port)
    const tenants = await MixedTraffic.seed(embedded.port, adminToken)
    const embeddedMixedPages = await mixedPages(embedded.port, tenants)
    page = await call(embedded.port, "GET", path)
    if (page.status !== 200) throw new Error(`the list answered ${page.status}: ${page.text}`)
    const distinctPath = distinctPaths(path)[concurrency - 1]!
    const distinctPage = await call(embedded.port, "GET", distinctPath)
    const embeddedResult = await measureAll(embedded, path, tenants)
    await stop(embedded.child)
    const embeddedAgain = await launch(engine, { DATA_DIR: embeddedEnv.DATA_DIR }, path)
    await stop(embeddedAgain.child)
    const handLiteNew = await launch(
      tsx("./handwritten-pglite-server.ts"),
      { DATA_DIR: join(dataDirectory, "pglite-new") },
      path
    )
    await stop(handLiteNew.child)
    const handLite = await launch(
      tsx("./handwritten-pglite-server.ts"),
      { DATA_DIR: join(embeddedEnv.DATA_DIR, "postgres") },
      path
    )
    await samePage(handLite.port, path, page!.text, "the hand-written PGlite server")
    await samePage(handLite.port, distinctPath, distinctPage.text, "the hand-written PGlite server")
    await sameMixedPages(handLite.port, embeddedMixedPages, tenants, "the hand-written PGlite server")
    rows.push({
      name: "hand-written node:http + PGlite",
      ...(await measureAll(handLite, path, tenants)),
      start: `${fmt(handLite.startSeconds)} (${fmt(handLiteNew.startSeconds)} new directory)`
    })
    await stop(handLite.child)
    rows.push({
      name: "engine on the embedded database",
      ...embeddedResult,
      start: `${fmt(embeddedAgain.startSeconds)} (${fmt(embedded.startSeconds)} new directory)`
    })
  }
  if (page === undefined) throw new Error(`BENCH_DATABASES names no database: ${databases.join(",")}`)

  // Bare node:http answering the very same bytes.
  const bareSource = `const body = Buffer.from(process.env.BODY); require("node:http").createServer((req, res) => { res.writeHead(200, { "content-type": "application/json", "content-length": body.length }); res.end(body) }).listen(Number(process.env.PORT), "127.0.0.1")`
  const bare = await launch(["-e", bareSource], { BODY: page.text }, path)
  rows.unshift({ name: "bare node:http (page bytes)", result: await measure(bare, path), start: "—" })
  await stop(bare.child)

  console.log(
    `GET /api/v1/agents/{agent_id}/conversations?page=1&limit=50: ${page.text.length} bytes, ${concurrency} connections, ${seconds} s each` +
      (pinnable ? ", servers on core 0, load on core 1" : " (taskset missing: not pinned)")
  )
  const line = (name: string, result: Measured, after: string) =>
    console.log(
      `${name.padEnd(32)} ${result.requestsPerSecond.toFixed(0).padStart(7)} req/s  CPU ${result.cpu === undefined ? "    ?" : result.cpu.toFixed(0).padStart(5)} µs/answer  p50 ${result.p50Ms.toFixed(2).padStart(7)} ms  p99 ${result.p99Ms.toFixed(2).padStart(7)} ms  ${String(result.errors).padStart(3)} errors${after}`
    )
  for (const { name, result, start } of rows) line(name, result, `  start to first answer ${start}`)
  console.log(
    `${concurrency} connections, each asking a different page (limit 40 to ${40 + Math.min(concurrency, 61) - 1}):`
  )
  for (const { name, distinct } of rows) if (distinct !== undefined) line(name, distinct, "")
  console.log(
    `${concurrency} connections, users' traffic (${MixedTraffic.shape.organizations} organizations × ${MixedTraffic.shape.agents} agents × ${MixedTraffic.shape.runs} runs; each request a random key, agent, page ${MixedTraffic.pages.join("/")} and limit ${MixedTraffic.limits.join("/")}):`
  )
  for (const { name, mixed } of rows) if (mixed !== undefined) line(name, mixed, "")
  const ratioOf = (x: Measured | undefined, y: Measured | undefined, name: string) => {
    if (x !== undefined && y !== undefined)
      console.log(
        `${name.padEnd(62)} throughput ${(x.requestsPerSecond / y.requestsPerSecond).toFixed(2)}x, p99 ${(x.p99Ms / y.p99Ms).toFixed(2)}x` +
          (x.cpu === undefined || y.cpu === undefined ? "" : `, CPU/answer ${(x.cpu / y.cpu).toFixed(2)}x`)
      )
  }
  const row = (name: string) => rows.find((row) => row.name === name)
  const ratio = (name: string, a: string, b: string) => {
    ratioOf(row(a)?.result, row(b)?.result, name)
    if (row(a)?.distinct !== undefined && row(b)?.distinct !== undefined)
      ratioOf(row(a)?.distinct, row(b)?.distinct, `${name} (different pages)`)
    if (row(a)?.mixed !== undefined && row(b)?.mixed !== undefined)
      ratioOf(row(a)?.mixed, row(b)?.mixed, `${name} (users' traffic)`)
  }
  ratio("engine on PostgreSQL / hand-written pg", "engine on PostgreSQL", "hand-written node:http + pg")
  ratio(
    "engine embedded / hand-written PGlite",
    "engine on the embedded database",
    "hand-written node:http + PGlite"
  )
  ratio("engine on PostgreSQL / bare", "engine on PostgreSQL", "bare node:http (page bytes)")
  ratio("engine embedded / bare", "engine on the embedded database", "bare node:http (page bytes)")
} finally {
  await stopAll()
  await TestDatabase.dropDatabase(database).catch(() => undefined)
  rmSync(dataDirectory, { recursive: true, force: true })
}
