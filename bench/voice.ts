// Benchmark: the engine's own share of a phone call's turn, and its CPU per live call, with BENCH_CALLS
// (50) calls at once through the bundled server (`npm run build` first, then the compiled bundle, as
// `npm start` runs it) with `TELEPHONY=twilio` on the project's fakes (bench/VoiceWorld.ts): Twilio's REST
// API and its callers (packages/voice/testing FakeCallers: every call answered, the caller's audio as real
// time 20 ms frames, BENCH_CALL_TURNS (6) turns a call of 600 ms of speech each, the last asking the agent
// to end the call), Deepgram hearing the turns in the audio (200 ms endpointing) and answering
// BENCH_STT_DELAY_MS (100) after them, the model answering BENCH_MODEL_DELAY_MS (200) after each request,
// the speech server sending its first audio BENCH_TTS_DELAY_MS (100) after each request. The server's
// PUBLIC_BASE_URL is a loopback TCP relay in front of it (FakePublicAddress). Each turn is timed at the fake
// Twilio, from the caller's frame completing the silence after their words to the first agent audio frame
// after it; minus the three delays, that is the engine's own share (p50/p99). CPU per live call: the server
// process's CPU (/proc) over the load divided by the live call-seconds (answer to end, summed). First a
// warm-up of BENCH_CALLS / 5 calls, not counted. Embedded database (a fresh data directory);
// BENCH_DATABASES=postgres: a fresh database at TEST_DATABASE_URL instead (dropped afterwards).
// The server runs in its own process group pinned to core 0 (`taskset`, when there is one), the fakes and
// the load on core 1; everything is stopped on every exit path; the run is bounded by
// BENCH_DEADLINE_MINUTES (10). BENCH_ENGINE=<start.js>: another build; BENCH_BUILD=0: no build;
// BENCH_NODE_ARGS: options for the engine's node (a profile: `--cpu-prof --cpu-prof-dir=<dir>`).
// Run: `npm run bench:voice`.
import { TestDatabase } from "@voice-agent-platform/pg/testing"
import { Effect, Exit, Scope } from "effect"
import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as ServerProcess from "./ServerProcess.js"
import { type Delays, describe, engineEnv, figures, numbers, ratios, world } from "./VoiceWorld.js"

const setting = (name: string, fallback: number, max: number) =>
  Math.min(Number(process.env[name] ?? fallback), max)
const calls = setting("BENCH_CALLS", 50, 500)
const turns = Math.max(2, setting("BENCH_CALL_TURNS", 6, 100))
const delays: Delays = {
  sttMs: setting("BENCH_STT_DELAY_MS", 100, 10_000),
  modelMs: setting("BENCH_MODEL_DELAY_MS", 200, 10_000),
  ttsMs: setting("BENCH_TTS_DELAY_MS", 100, 10_000)
}
const warmupCalls = Math.max(1, Math.floor(calls / 5))
const deadline = Date.now() + setting("BENCH_DEADLINE_MINUTES", 10, 120) * 60_000
const postgres = (process.env.BENCH_DATABASES ?? "embedded").split(",").includes("postgres")
const adminToken = "voice-bench-operator-token-0123456789"
const apiKey = `vap_${"B".repeat(40)}`

process.once("exit", ServerProcess.killAll)
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130))
const overall = setTimeout(() => {
  console.error("the bench did not finish before BENCH_DEADLINE_MINUTES")
  process.exit(1)
}, deadline - Date.now())

const pinned = ServerProcess.pinLoad()
const root = fileURLToPath(new URL("..", import.meta.url))
if (process.env.BENCH_BUILD !== "0" && process.env.BENCH_ENGINE === undefined) {
  console.log("npm run build (as npm start does first)")
  execFileSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit", timeout: 600_000 })
}
// BENCH_NODE_ARGS: options for the engine's node (for example `--cpu-prof --cpu-prof-dir=/tmp/prof`)
const engineArgs = [
  ...(process.env.BENCH_NODE_ARGS ?? "").split(" ").filter((arg) => arg !== ""),
  process.env.BENCH_ENGINE ?? join(root, "packages/http/dist/bundle/start.js")
]

const scope = Effect.runSync(Scope.make())
const dataDir = mkdtempSync(join(tmpdir(), "vap-voice-bench-"))
const database = postgres ? await TestDatabase.createDatabase() : undefined
let server: Awaited<ReturnType<typeof ServerProcess.launch>> | undefined
try {
  // the fakes: started after pinning, so on core 1 with the load
  const w = await Effect.runPromise(
    Scope.extend(
      world({
        delays,
        turns,
        speechMs: 600,
        endpointingMs: 200,
        speechAnswers: (calls + warmupCalls) * (turns + 2) * 4
      }),
      scope
    )
  )
  server = await ServerProcess.launch(
    engineArgs,
    {
      ...engineEnv(w),
      DATA_DIR: dataDir,
      ...(database === undefined
        ? {}
        : {
            DATABASE_URL: TestDatabase.databaseUrl(database),
            ENCRYPTION_KEY: "the voice bench's encryption key 0123456789"
          }),
      ADMIN_TOKEN: adminToken,
      BOOTSTRAP_API_KEY: apiKey
    },
    "/health",
    pinned
  )
  w.address.setServers([server.port])
  const { port } = server
  const api = async (
    method: string,
    path: string,
    body?: unknown,
    auth: Record<string, string> = { "x-api-key": apiKey }
  ) => {
    const answer = await ServerProcess.call(port, method, path, auth, body)
    if (answer.status !== 200) throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text}`)
    return JSON.parse(answer.text)
  }
  const organizationId = Number(/organization (\d+)/.exec(server.output())?.[1])
  await api(
    "PATCH",
    `/admin/v1/organizations/${organizationId}`,
    { outbound_channels: calls + warmupCalls },
    { authorization: `Bearer ${adminToken}` }
  )
  const agent = await api("POST", "/api/v1/agents/from-script", {
    agent: { greeting: "Hello, this is the clinic.", agent_goal: "Answer the caller's questions" }
  })
  const tool = await api("POST", "/api/v1/tools", {
    name: "End call",
    definition: { type: "end_call", config: { messageType: "custom", customMessage: "Goodbye." } }
  })
  await api("PATCH", `/api/v1/agents/${agent.public_id}`, { tools: [tool.tool_uuid] })
  const phoneNumbers = [...numbers(2 * (calls + warmupCalls))]

  /** Places `count` calls at once through `place`, and waits until every one has ended at the fake Twilio. */
  const load = async (place: (phone_number: string) => Promise<unknown>, count: number) => {
    const ended = w.callers.outcomes().length + count
    await Promise.all(phoneNumbers.splice(0, count).map(place))
    while (w.callers.outcomes().length < ended) {
      if (Date.now() > deadline) throw new Error("the calls did not end before the deadline")
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  /** A warm-up, then the measured calls: their figures. */
  const measure = async (pid: number, place: (phone_number: string) => Promise<unknown>) => {
    await load(place, warmupCalls)
    // the measured calls only: the callers' records from here on
    const before = { turns: w.callers.turns().length, outcomes: w.callers.outcomes().length }
    const cpuBefore = ServerProcess.cpuMicros(pid)
    const started = performance.now()
    await load(place, calls)
    const seconds = (performance.now() - started) / 1000
    const cpuAfter = ServerProcess.cpuMicros(pid)
    const measured = {
      turns: () => w.callers.turns().slice(before.turns),
      outcomes: () => w.callers.outcomes().slice(before.outcomes),
      live: w.callers.live
    }
    const cpu = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore
    return figures(measured, delays, seconds, cpu)
  }

  console.log(
    `${calls} calls at once (after ${warmupCalls} to warm up), ${turns} turns each; providers' delays: speech recognition ${delays.sttMs} ms, model ${delays.modelMs} ms, speech ${delays.ttsMs} ms; ${postgres ? "PostgreSQL" : "embedded database"}${pinned ? "; servers on core 0, the fakes and the load on core 1" : ""}`
  )
  const engine = await measure(server.child.pid!, (phone_number) =>
    api("POST", `/api/v1/agents/${agent.public_id}/calls`, { phone_number })
  )
  for (const line of describe("engine", engine, delays)) console.log(line)
  // the engine's own breakdown of a turn (`vap_voice_turn_latency_seconds`, warm-up included): the mean
  // time from the caller's last words (as the engine knows them) to each step of its answer
  const metrics = (await ServerProcess.call(port, "GET", "/metrics", {})).text
  const mean = (step: string) => {
    const read = (what: string) =>
      Number(
        new RegExp(`^vap_voice_turn_latency_seconds_${what}\\{step="${step}"\\} (\\S+)$`, "m").exec(
          metrics
        )?.[1]
      )
    return ((read("sum") / read("count")) * 1000).toFixed(1)
  }
  console.log(
    `    the engine's own clock, mean from the caller's last words: ${["transcript_final", "first_token", "first_audio", "first_frame"].map((step) => `${step} ${mean(step)} ms`).join(", ")}`
  )
  await ServerProcess.stop(server.child)
  server = undefined

  if (process.env.BENCH_BASELINE !== "0") {
    const baseline = await ServerProcess.launch(
      ServerProcess.tsx(new URL("./handwritten-voice-server.ts", import.meta.url)),
      engineEnv(w),
      "/health",
      pinned
    )
    server = baseline
    w.address.setServers([baseline.port])
    const base = await measure(baseline.child.pid!, async (phone_number) => {
      const answer = await ServerProcess.call(baseline.port, "POST", "/calls", {}, { phone_number })
      if (answer.status !== 200) throw new Error(`the hand-written server's dial answered ${answer.status}`)
    })
    for (const line of describe("hand-written relay", base, delays)) console.log(line)
    console.log(ratios(engine, base))
  }
} finally {
  clearTimeout(overall)
  if (server !== undefined) await ServerProcess.stop(server.child)
  await Effect.runPromise(Scope.close(scope, Exit.void))
  if (database !== undefined) await TestDatabase.dropDatabase(database)
  rmSync(dataDir, { recursive: true, force: true })
}
