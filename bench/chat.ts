// Benchmark: the engine's own time per chat turn and analysed runs per second, through the bundled server
// (`npm run build` first, then the compiled bundle, as `npm start` runs it) with `LLM_PROVIDER=openai`
// pointing at the fake OpenAI-compatible server (packages/language-models/testing) answering every
// request after a fixed delay, on PostgreSQL (a fresh database at TEST_DATABASE_URL, dropped afterwards)
// and on the embedded database (a fresh data directory). The traffic is users' (bench/ChatWorld.ts):
// several organizations, agents with different prompts, tools and knowledge documents, messages of
// different lengths, some calling tools (at a local receiver), some streamed, each chat 2 to 6 messages.
//  1. Turns: BENCH_CHATS (50) chats at once until BENCH_TURNS (1,500) messages were answered, after
//     BENCH_WARMUP_TURNS (200); for each message the wall time at the client minus the model's time (the
//     fake's delay, BENCH_MODEL_DELAY_MS, 200, times the model requests the turn made, counted from the
//     fake's record: see ChatFigures.requestsByMessage): p50/p99 of that own time, turns/s, the server
//     process's CPU a turn (/proc). The same chats (the same messages, on runs made beforehand) are then
//     sent to a hand-written node:http server on the same database (bench/HandWrittenChat.ts): the
//     baseline of the ratios. Engine and baseline alternate BENCH_ROUNDS (2) times.
//  2. Statements a turn on PostgreSQL (BENCH_STATEMENTS=0 skips it): the engine and the baseline again,
//     300 turns each, through a counting proxy (bench/StatementCounter.ts); the background's statements
//     (measured over 3 idle seconds) are taken off.
//  3. Analysed runs/s: the chats left open by the turns are ended (at most BENCH_ANALYSIS_RUNS, 600) with
//     the fake answering after BENCH_ANALYSIS_DELAY_MS (20); then the same with the embedded model
//     (LLM_PROVIDER=embedded), on chats held with it first (their turns are printed too: the model
//     runs in the server, so their wall time is all the server's).
// Servers run in their own process groups pinned to core 0 (`taskset`, when there is one), the load, the
// fake model and the tools' receiver on core 1; everything is stopped on every exit path; the whole run is
// bounded by BENCH_DEADLINE_MINUTES (30). BENCH_DATABASES=postgres or embedded: only that one;
// BENCH_PROFILE=<directory>: the engine writes `--cpu-prof` profiles there (bench/profile-summary.ts);
// BENCH_ENGINE=<start.js>: another build of the bundled server (e.g. a commit's, for before/after);
// BENCH_BUILD=0: no build. Run: `npm run bench:chat`.
import { FakeOpenAiServer } from "@voice-agent-platform/language-models/testing"
import { TestDatabase } from "@voice-agent-platform/pg/testing"
import { Effect, Exit, Scope } from "effect"
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { Agent } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describeAnalysis, measureAnalysis } from "./ChatAnalysis.js"
import { describe, figures, ownTurns, ratios, requestsByMessage, type TurnFigures } from "./ChatFigures.js"
import { type ChatRun, createRun, runChats } from "./ChatLoad.js"
import { type ChatAgent, plan, seed } from "./ChatWorld.js"
import * as ServerProcess from "./ServerProcess.js"
import * as StatementCounter from "./StatementCounter.js"

const setting = (name: string, fallback: number, max: number) =>
  Math.min(Number(process.env[name] ?? fallback), max)
const chats = setting("BENCH_CHATS", 50, 500)
const turnsTarget = setting("BENCH_TURNS", 1500, 50_000)
const warmupTurns = setting("BENCH_WARMUP_TURNS", 200, 10_000)
const rounds = setting("BENCH_ROUNDS", 2, 10)
const delayMs = setting("BENCH_MODEL_DELAY_MS", 200, 10_000)
const analysisDelayMs = setting("BENCH_ANALYSIS_DELAY_MS", 20, 10_000)
const analysisRuns = setting("BENCH_ANALYSIS_RUNS", 600, 5_000)
const countStatements = process.env.BENCH_STATEMENTS !== "0"
const databases = (process.env.BENCH_DATABASES ?? "postgres,embedded").split(",")
const deadline = Date.now() + setting("BENCH_DEADLINE_MINUTES", 30, 240) * 60_000
const adminToken = "chat-bench-operator-token-0123456789"
const encryptionKey = "the-chat-benchmark-encryption-key-0123456789"
const statementTurns = 300

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
const profile = process.env.BENCH_PROFILE
const engineArgs = [
  ...(profile === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${profile}`]),
  process.env.BENCH_ENGINE ?? join(root, "packages/http/dist/bundle/start.js")
]
const tsx = (file: string) => ServerProcess.tsx(new URL(file, import.meta.url))

// The fake model and the tools' receiver: started after pinning, so on core 1 with the load.
const scope = Effect.runSync(Scope.make())
const fake = await Effect.runPromise(Scope.extend(FakeOpenAiServer.start, scope))
const run = <A>(effect: Effect.Effect<A>) => Effect.runPromise(effect)
const receiverSource = `const body = Buffer.from(JSON.stringify({ status: "ready", detail: "Everything is in order: the order shipped on Monday and arrives on Wednesday between 9 and 17.", padding: "x".repeat(256) })); require("node:http").createServer((req, res) => { req.resume(); req.on("end", () => { res.writeHead(200, { "content-type": "application/json", "content-length": body.length }); res.end(body) }) }).listen(0, "127.0.0.1", function () { console.log(JSON.stringify({ port: this.address().port })) })`
const receiver: ChildProcess = spawn(process.execPath, ["-e", receiverSource], {
  stdio: ["ignore", "pipe", "inherit"],
  detached: true
})
process.once("exit", () => {
  try {
    process.kill(-receiver.pid!, "SIGKILL")
  } catch {}
})
const receiverPort = await new Promise<number>((resolve, reject) => {
  receiver.stdout!.once("data", (line) => resolve(JSON.parse(String(line)).port))
  receiver.once("exit", () => reject(new Error("the tools' receiver did not start")))
})

/** The engine with the given model on the database's settings. */
const launchEngine = (
  database: Record<string, string>,
  provider: "openai" | "embedded",
  databaseUrl?: string
) =>
  ServerProcess.launch(
    engineArgs,
    {
      ...database,
      ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
      LLM_PROVIDER: provider,
      LLM_BASE_URL: fake.baseUrl,
      OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
      ADMIN_TOKEN: adminToken
    },
    "/health",
    pinned
  )

type Server = Awaited<ReturnType<typeof ServerProcess.launch>>

/** Chats `firstChat`… through the server; answers their figures and the runs they left open. */
const measureTurns = async (
  server: Server,
  agents: ReadonlyArray<ChatAgent>,
  firstChat: number,
  turns: number,
  delay: number,
  runFor?: (number: number) => ChatRun
) => {
  await run(fake.reset)
  await run(fake.setDefaultDelay(delay))
  const pid = server.child.pid
  const cpuBefore = pid === undefined ? undefined : ServerProcess.cpuMicros(pid)
  const fakeBefore = ServerProcess.cpuMicros(fake.pid)
  const loadBefore = process.cpuUsage()
  const load = await runChats({
    port: server.port,
    agents,
    concurrency: chats,
    turns,
    firstChat,
    deadline,
    keepOpen: true,
    ...(runFor === undefined ? {} : { runFor: async (_: unknown, number: number) => runFor(number) })
  })
  const cpuAfter = pid === undefined ? undefined : ServerProcess.cpuMicros(pid)
  const fakeAfter = ServerProcess.cpuMicros(fake.pid)
  const loadCpu = process.cpuUsage(loadBefore)
  const requests = requestsByMessage(await run(fake.requests))
  const own = ownTurns(load.turns, requests, delay)
  const cpu = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore
  const measured = figures(own, load.seconds, cpu)
  // the harness's own CPU a turn: were the fake model or the load the bottleneck, the figures would say so
  const harness = `the fake model's CPU ${fakeBefore === undefined || fakeAfter === undefined ? "?" : ((fakeAfter - fakeBefore) / 1000 / measured.turns).toFixed(2)} ms a turn, the load's ${((loadCpu.user + loadCpu.system) / 1000 / measured.turns).toFixed(2)} ms`
  return { figures: measured, open: load.open, ended: load.ended, harness }
}

/** Chat runs made beforehand through the engine, for chats `from` … `from + count - 1` (their plans' agents). */
const makeRuns = async (port: number, agents: ReadonlyArray<ChatAgent>, from: number, count: number) => {
  const agent = new Agent({ keepAlive: true, maxSockets: 10 })
  const made = new Map<number, ChatRun>()
  let next = from
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < from + count) {
        const number = next++
        made.set(number, await createRun(agent, port, plan(agents, number).agent, number))
      }
    })
  )
  agent.destroy()
  return (number: number) => {
    const found = made.get(number)
    if (found === undefined) throw new Error(`no run made beforehand for chat ${number}`)
    return found
  }
}

/** Chats a load may start: a chat has at least two messages, and each of the concurrent chats may be one more. */
const chatsFor = (turns: number) => Math.ceil(turns / 2) + chats

/** Statements a turn through the counting proxy: the background's rate over 3 idle seconds is taken off. */
const statementsPerTurn = async (
  counter: StatementCounter.Counter,
  server: Server,
  agents: ReadonlyArray<ChatAgent>,
  firstChat: number,
  runFor?: (number: number) => ChatRun
) => {
  await new Promise((r) => setTimeout(r, 1000))
  counter.reset()
  await new Promise((r) => setTimeout(r, 3000))
  const idlePerSecond = counter.total() / 3
  counter.reset()
  const started = performance.now()
  const measured = await measureTurns(server, agents, firstChat, statementTurns, delayMs, runFor)
  const seconds = (performance.now() - started) / 1000
  const turns = measured.figures.turns
  const background = idlePerSecond * seconds
  const top = [...counter.counts()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 40)
    .map(([text, n]) => `      ${(n / turns).toFixed(2).padStart(5)}  ${text.slice(0, 150)}`)
  return {
    perTurn: (counter.total() - background) / turns,
    line: `${turns} turns: ${counter.total()} statements, ${background.toFixed(0)} of them the background's (${idlePerSecond.toFixed(1)}/s idle)`,
    top
  }
}

const summary: Array<string> = []
const say = (line: string) => {
  console.log(line)
  summary.push(line)
}

/** Everything on one database. */
const benchDatabase = async (
  name: string,
  database: Record<string, string>,
  databaseUrl: string | undefined
) => {
  const baselineArgs = tsx(
    databaseUrl === undefined ? "./handwritten-chat-pglite-server.ts" : "./handwritten-chat-pg-server.ts"
  )
  const baselineEnv = {
    LLM_BASE_URL: fake.baseUrl,
    ...(databaseUrl === undefined
      ? { DATA_DIR: join(database.DATA_DIR!, "postgres") }
      : { DATABASE_URL: databaseUrl })
  }
  let engine = await launchEngine(database, "openai", databaseUrl)
  const agents = await seed(engine.port, adminToken, `http://127.0.0.1:${receiverPort}`, 6, 3)
  console.log(
    `${name}: ${agents.length} agents in 6 organizations, ${agents.filter((a) => a.functions.length > 0).length} with HTTP tools`
  )
  const open: Array<ChatRun> = []
  const engineRounds: Array<TurnFigures> = []
  const baselineRounds: Array<TurnFigures> = []
  let chat = 0
  for (let round = 1; round <= rounds; round++) {
    if (round > 1) engine = await launchEngine(database, "openai", databaseUrl)
    const warmFrom = chat
    await measureTurns(engine, agents, warmFrom, warmupTurns, delayMs)
    const measuredFrom = warmFrom + chatsFor(warmupTurns)
    const measured = await measureTurns(engine, agents, measuredFrom, turnsTarget, delayMs)
    open.push(...measured.open)
    engineRounds.push(measured.figures)
    say(`${name}, round ${round}, ${describe("engine", measured.figures).join("\n")}`)
    console.log(`    ${measured.harness}`)
    // the baseline's runs: the same chats (numbers), on runs made beforehand through the engine
    const baselineWarmFrom = measuredFrom + chatsFor(turnsTarget)
    const runs = await makeRuns(engine.port, agents, baselineWarmFrom, chatsFor(warmupTurns))
    const again = await makeRuns(engine.port, agents, measuredFrom, chatsFor(turnsTarget))
    chat = baselineWarmFrom + chatsFor(warmupTurns)
    await ServerProcess.stop(engine.child)
    const baseline = await ServerProcess.launch(baselineArgs, baselineEnv, "/", pinned)
    await measureTurns(baseline, agents, baselineWarmFrom, warmupTurns, delayMs, runs)
    const base = await measureTurns(baseline, agents, measuredFrom, turnsTarget, delayMs, again)
    await ServerProcess.stop(baseline.child)
    baselineRounds.push(base.figures)
    say(`${name}, round ${round}, ${describe("hand-written", base.figures).join("\n")}`)
    console.log(`    ${base.harness}`)
    say(`${name}, round ${round}, ${ratios(measured.figures, base.figures)}`)
  }

  if (databaseUrl !== undefined && countStatements) {
    const url = new URL(databaseUrl)
    const counter = await StatementCounter.start({ host: url.hostname, port: Number(url.port || 5432) })
    try {
      url.host = `127.0.0.1:${counter.port}`
      const counted = await launchEngine(database, "openai", url.toString())
      // runs made beforehand, so that only the turns are counted
      const engineRuns = await makeRuns(counted.port, agents, chat, chatsFor(statementTurns))
      const engineCount = await statementsPerTurn(counter, counted, agents, chat, engineRuns)
      const baselineRuns = await makeRuns(
        counted.port,
        agents,
        chat + chatsFor(statementTurns),
        chatsFor(statementTurns)
      )
      await ServerProcess.stop(counted.child)
      const baseline = await ServerProcess.launch(
        baselineArgs,
        { ...baselineEnv, DATABASE_URL: url.toString() },
        "/",
        pinned
      )
      const baselineCount = await statementsPerTurn(
        counter,
        baseline,
        agents,
        chat + chatsFor(statementTurns),
        baselineRuns
      )
      await ServerProcess.stop(baseline.child)
      chat += 2 * chatsFor(statementTurns)
      say(
        `${name}: statements a turn: engine ${engineCount.perTurn.toFixed(2)} (${engineCount.line}), hand-written ${baselineCount.perTurn.toFixed(2)} (${baselineCount.line})`
      )
      console.log(`    the engine's statements, per turn:\n${engineCount.top.join("\n")}`)
    } finally {
      await counter.close()
    }
  }

  if (analysisRuns === 0) return { engineRounds, baselineRounds }
  // analysed runs per second: the fake model, then the embedded model
  engine = await launchEngine(database, "openai", databaseUrl)
  await run(fake.reset)
  await run(fake.setDefaultDelay(analysisDelayMs))
  const toAnalyse = open.slice(0, analysisRuns)
  const analysed = await measureAnalysis(engine.port, engine.child.pid, toAnalyse, chats, deadline)
  const structured = (await run(fake.requests)).filter(
    (r) => (r.body as { response_format?: unknown }).response_format !== undefined
  ).length
  say(
    `${name}, ${describeAnalysis(`analysis by the fake model (${analysisDelayMs} ms a request, ${structured} structured requests)`, analysed)}`
  )
  await ServerProcess.stop(engine.child)
  engine = await launchEngine(database, "embedded", databaseUrl)
  const embeddedChats = await measureTurns(engine, agents, chat, Math.min(turnsTarget, analysisRuns * 3), 0)
  say(
    `${name}, ${describe("embedded model (all of a turn is the server's)", embeddedChats.figures).join("\n")}`
  )
  const embeddedAnalysed = await measureAnalysis(
    engine.port,
    engine.child.pid,
    embeddedChats.open.slice(0, analysisRuns),
    chats,
    deadline
  )
  say(`${name}, ${describeAnalysis("analysis by the embedded model", embeddedAnalysed)}`)
  await ServerProcess.stop(engine.child)
  return { engineRounds, baselineRounds }
}

const dataDirectory = mkdtempSync(join(tmpdir(), "vap-chat-bench-"))
let database: string | undefined
try {
  console.log(
    `node ${process.version}; ${chats} chats at once, ${turnsTarget} turns measured after ${warmupTurns}, ${rounds} rounds, model delay ${delayMs} ms; load average ${execFileSync("cat", ["/proc/loadavg"], { encoding: "utf8" }).trim()}` +
      (pinned
        ? "; servers on core 0, load, fake model and receiver on core 1"
        : " (taskset missing: not pinned)")
  )
  if (databases.includes("postgres")) {
    if (!(await TestDatabase.serverReachable())) console.log("postgres: not reachable, skipped")
    else {
      database = await TestDatabase.createDatabase()
      await benchDatabase(
        "PostgreSQL",
        { DATA_DIR: join(dataDirectory, "pg-files"), ENCRYPTION_KEY: encryptionKey },
        TestDatabase.databaseUrl(database)
      )
    }
  }
  if (databases.includes("embedded"))
    await benchDatabase("embedded", { DATA_DIR: join(dataDirectory, "embedded") }, undefined)
  console.log(
    `\nsummary (load average now ${execFileSync("cat", ["/proc/loadavg"], { encoding: "utf8" }).trim()}):\n${summary.join("\n")}`
  )
} finally {
  clearTimeout(overall)
  await ServerProcess.stopAll()
  await Effect.runPromise(Scope.close(scope, Exit.void))
  try {
    process.kill(-receiver.pid!, "SIGKILL")
  } catch {}
  if (database !== undefined) await TestDatabase.dropDatabase(database).catch(() => undefined)
  rmSync(dataDirectory, { recursive: true, force: true })
}
