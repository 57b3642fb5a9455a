// Benchmark: `npm start` as a user runs it, timed from the command to the first answer of `GET /health`
// (issue #28's goal: ≤ 1.5 s on PostgreSQL and on an existing data directory, ≤ 3 s on a new one).
// Each case is started BENCH_STARTS times (default 3) after one build (so no start rebuilds: the build
// happens when the sources change, see packages/http/scripts/build-when-changed.js), and the median and
// the spread are printed. Every start runs in its own process group and is stopped with it; loopback
// only. Run: `npm run bench:start` (TEST_DATABASE_URL: the PostgreSQL server, default 127.0.0.1:5432,
// where a database of its own is made and dropped).
import { TestDatabase } from "@voice-agent-platform/pg/testing"
import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as ServerProcess from "./ServerProcess.js"

const starts = Number(process.env.BENCH_STARTS ?? 3)
const root = fileURLToPath(new URL("..", import.meta.url))
const npm = process.platform === "win32" ? "npm.cmd" : "npm"

console.log("npm run build (once: no start below rebuilds)")
execFileSync(npm, ["run", "build", "--silent"], { cwd: root, stdio: "inherit", timeout: 600_000 })

/** Starts `npm start` with `env` and answers the seconds from the command to the first `/health` answer. */
const timeStart = async (env: Record<string, string>) => {
  const started = await ServerProcess.launchCommand(npm, ["start", "--silent"], root, env, "/health")
  await ServerProcess.stop(started.child)
  return started.startSeconds
}

const median = (values: ReadonlyArray<number>) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const row = (name: string, seconds: ReadonlyArray<number>) =>
  console.log(
    `${name.padEnd(38)} median ${median(seconds).toFixed(2)} s  (${seconds.map((s) => s.toFixed(2)).join(", ")})`
  )

const directory = mkdtempSync(join(tmpdir(), "vap-start-"))
const database = await TestDatabase.createDatabase()
try {
  const load = loadavg()[0]!.toFixed(2)
  const secrets = { ENCRYPTION_KEY: "the-benchmark-encryption-key-0123456789" }
  const postgres: Array<number> = []
  const existing: Array<number> = []
  const fresh: Array<number> = []
  // The first start on each makes the schema (PostgreSQL) or the directory (embedded); not counted.
  await timeStart({
    ...secrets,
    DATABASE_URL: TestDatabase.databaseUrl(database),
    DATA_DIR: join(directory, "pg")
  })
  await timeStart({ ...secrets, DATA_DIR: join(directory, "existing") })
  for (let i = 0; i < starts; i++) {
    postgres.push(
      await timeStart({
        ...secrets,
        DATABASE_URL: TestDatabase.databaseUrl(database),
        DATA_DIR: join(directory, "pg")
      })
    )
    existing.push(await timeStart({ ...secrets, DATA_DIR: join(directory, "existing") }))
    fresh.push(await timeStart({ ...secrets, DATA_DIR: join(directory, `new-${i}`) }))
  }
  console.log(
    `npm start → first answer of GET /health, ${starts} starts each, load average ${load} → ${loadavg()[0]!.toFixed(2)}`
  )
  row("PostgreSQL (schema up to date)", postgres)
  row("embedded, existing data directory", existing)
  row("embedded, new data directory", fresh)
} finally {
  await ServerProcess.stopAll()
  await TestDatabase.dropDatabase(database).catch(() => undefined)
  rmSync(directory, { recursive: true, force: true })
}
