// Campaign dialer throughput and report latency, in process (no HTTP): the engine over PostgreSQL (a fresh
// database on the server at TEST_DATABASE_URL, dropped afterwards) and over the embedded database
// (PGlite in memory), with a telephony whose calls end `completed` at once. Measures
//  1. contacts dispatched per second: a campaign of BENCH_DIAL_CONTACTS (default 3,000) contacts with
//     max_concurrency 500 dialed to the end by one dialer (`CampaignDialer.round` back to back);
//  2. the report's first page (50 rows) p50/p99 at BENCH_REPORT_CONTACTS (default 100,000) contacts while
//     the dialer runs that campaign in the background (BENCH_REPORT_SAMPLES reads, default 300, 10 ms
//     apart, once the dialer has made 100 attempts).
// Logs: the engine's log lines (one "call ended" a call, one "dialer claimed contacts" a claim) go through
// the bundled server's logger (`LogLines`, JSON lines written in batches) to BENCH_LOG_FILE (default the
// null device): their formatting and writing are measured, as the server pays them, not a terminal's
// rendering of Effect's default console logger. Tracing is off, as in the bundled server without
// OTEL_EXPORTER_OTLP_ENDPOINT (its default): spans are no-ops, as the server pays them.
// Bounded: every phase has a deadline (dialing 180 s, sampling 120 s), counts are capped, nothing leaves
// the machine. Run: `npm run bench:campaign` (BENCH_DATABASES=postgres,embedded by default).
import {
  type Agent,
  CallEvents,
  Campaigns,
  CampaignDialer,
  PriceListConfig,
  SecureRandom,
  Services,
  Telephony
} from "@voice-agent-platform/core"
import * as MemoryBlobStore from "@voice-agent-platform/core/memory/MemoryBlobStore.js"
import * as ShiftedClock from "@voice-agent-platform/core/clock/ShiftedClock.js"
import { CallingClock } from "@voice-agent-platform/core/testing"
import * as Fixtures from "../packages/core/testing/Fixtures.js"
import type { Campaign } from "@voice-agent-platform/core"
import { EmbeddedPostgres, PgStorage, SecretBox } from "@voice-agent-platform/pg"
import { TestDatabase } from "@voice-agent-platform/pg/testing"
import { Duration, Effect, Fiber, FiberSet, Layer, Logger, Option, Redacted } from "effect"
import { createWriteStream } from "node:fs"
import { devNull } from "node:os"
import { monitorEventLoopDelay } from "node:perf_hooks"
import * as LogLines from "../packages/http/src/observability/LogLines.js"
import * as Tracing from "../packages/http/src/observability/Tracing.js"
import { dialableNumbers } from "../packages/http/test/campaigns/DialableNumbers.js"

const dialContacts = Math.min(Number(process.env.BENCH_DIAL_CONTACTS ?? 3000), 20_000)
const reportContacts = Math.min(Number(process.env.BENCH_REPORT_CONTACTS ?? 100_000), 100_000)
const reportSamples = Math.min(Number(process.env.BENCH_REPORT_SAMPLES ?? 300), 5000)
const maxConcurrency = Math.min(Number(process.env.BENCH_MAX_CONCURRENCY ?? 100), 1000)
const databases = (process.env.BENCH_DATABASES ?? "postgres,embedded").split(",")

/** The bundled server's logger, writing to BENCH_LOG_FILE (default the null device); counts its lines. */
class CountingWriter extends LogLines.LineWriter {
  lines = 0
  override write(line: string): void {
    this.lines++
    super.write(line)
  }
}
const logWriter = new CountingWriter(createWriteStream(process.env.BENCH_LOG_FILE ?? devNull))
const serverLogger = Logger.replace(Logger.defaultLogger, LogLines.logger("json", logWriter))
/** The bundled server's tracing without OTEL_EXPORTER_OTLP_ENDPOINT (its default): off, every span a no-op. */
const serverTracing = Tracing.layer(Option.none())

/** Calls that end `completed` the moment they are placed, through the call events as a runtime's would. */
const instantTelephony = Layer.scoped(
  Telephony.Telephony,
  Effect.gen(function* () {
    const events = yield* CallEvents.CallEvents
    const fork = yield* FiberSet.makeRuntime<never, void, never>()
    return Telephony.Telephony.of({
      placeCall: (call) =>
        Effect.sync(() => {
          fork(
            events
              .report(call.run.organization_id, call.run.workflow_run_id, {
                type: "ended",
                status: "completed",
                duration_seconds: 0
              })
              .pipe(Effect.ignore)
          )
        })
    })
  })
).pipe(Layer.provide(CallEvents.layer))

const engineOver = (sql: Layer.Layer<any, unknown>) => {
  const stores = PgStorage.layer.pipe(
    Layer.provide(SecretBox.layer(Redacted.make("the campaign bench's encryption key 0123456789"))),
    Layer.provide(sql)
  )
  const ports = Layer.mergeAll(
    stores,
    MemoryBlobStore.layer,
    SecureRandom.layerWebCrypto,
    PriceListConfig.layerDefault
  )
  return Services.layer.pipe(Layer.provideMerge(instantTelephony), Layer.provideMerge(ports))
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

const rows = (numbers: ReadonlyArray<string>) =>
  numbers.map((phone_number, i) => ({ row: i + 1, phone_number, initial_context: { n: i } }))

/** A running campaign of the numbers, imported 10,000 at a time. */
const runningCampaign = (numbers: ReadonlyArray<string>, maxConcurrency: number) =>
  Effect.gen(function* () {
    const campaigns = yield* Campaigns.Campaigns
    const org = yield* Fixtures.organization({ outbound_channels: 1000 })
    const { agent } = yield* Fixtures.agent(org.id)
    const { campaign } = yield* campaigns.create(org.id, {
      name: "Bench",
      agent: String((agent as Agent.Agent).id),
      max_concurrency: maxConcurrency
    })
    for (let i = 0; i < numbers.length; i += 10_000) {
      yield* campaigns.addContacts(org.id, campaign.id, rows(numbers.slice(i, i + 10_000)))
    }
    yield* campaigns.act(org.id, campaign.id, "start")
    return { org, campaign }
  })

const statusOf = (org: { readonly id: Campaign.Campaign["organization_id"] }, id: Campaign.CampaignId) =>
  Effect.flatMap(Campaigns.Campaigns, (c) => c.find(org.id, id)).pipe(Effect.orDie)

const dialToTheEnd = Effect.gen(function* () {
  const numbers = dialableNumbers(dialContacts)
  const { org, campaign } = yield* runningCampaign(numbers, maxConcurrency)
  const dialer = yield* CampaignDialer.make("bench-dialer")
  const started = performance.now()
  const cpuBefore = process.cpuUsage()
  const deadline = started + 180_000
  for (;;) {
    const progress = yield* dialer.round
    const now = yield* statusOf(org, campaign.id)
    if (now.status === "completed" || performance.now() > deadline) {
      const seconds = (performance.now() - started) / 1000
      const done = now.totals.counts.completed + now.totals.counts.failed + now.totals.counts.skipped
      // this process's CPU time a contact (user + system): less swayed by the machine's load than the rate
      const cpu = process.cpuUsage(cpuBefore)
      const cpuMsPerContact = (cpu.user + cpu.system) / 1000 / Math.max(1, done)
      return {
        contacts: done,
        seconds,
        perSecond: done / seconds,
        cpuMsPerContact,
        completed: now.status === "completed"
      }
    }
    if (progress === 0) yield* Effect.sleep(Duration.millis(5))
  }
})

const reportWhileDialing = Effect.gen(function* () {
  const numbers = dialableNumbers(reportContacts)
  const imported = performance.now()
  const { org, campaign } = yield* runningCampaign(numbers, maxConcurrency)
  const importSeconds = (performance.now() - imported) / 1000
  const dialer = yield* CampaignDialer.make("bench-report-dialer")
  const background = yield* Effect.fork(
    Effect.forever(
      Effect.flatMap(dialer.round, (n) => (n === 0 ? Effect.sleep(Duration.millis(5)) : Effect.void))
    )
  )
  const campaigns = yield* Campaigns.Campaigns
  // sample only once the dialer is at work (at most 60 s of waiting), one read every 10 ms
  const waitUntil = performance.now() + 60_000
  while ((yield* statusOf(org, campaign.id)).totals.attempts < 100 && performance.now() < waitUntil) {
    yield* Effect.sleep(Duration.millis(50))
  }
  const dialedBefore = (yield* statusOf(org, campaign.id)).totals.attempts
  const latencies: Array<number> = []
  const loopDelay = monitorEventLoopDelay({ resolution: 5 })
  loopDelay.enable()
  const sampling = performance.now()
  const deadline = sampling + 120_000
  for (let i = 0; i < reportSamples && performance.now() < deadline; i++) {
    const t0 = performance.now()
    yield* campaigns.report(org.id, campaign.id, {}, { page: 1, limit: 50 }).pipe(Effect.orDie)
    latencies.push(performance.now() - t0)
    yield* Effect.sleep(Duration.millis(10))
  }
  loopDelay.disable()
  const samplingSeconds = (performance.now() - sampling) / 1000
  const dialed = (yield* statusOf(org, campaign.id)).totals.attempts - dialedBefore
  yield* Fiber.interrupt(background)
  const sorted = latencies.sort((a, b) => a - b)
  return {
    contacts: reportContacts,
    importSeconds,
    samples: sorted.length,
    dialedMeanwhile: dialed,
    samplingSeconds,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    // the event loop's delay while sampling (past the 5 ms resolution): what the dialer held it for
    loopP99Ms: loopDelay.percentile(99) / 1e6,
    loopMaxMs: loopDelay.max / 1e6
  }
})

const bench = (name: string, sql: Layer.Layer<any, unknown>) =>
  Effect.gen(function* () {
    const dial = yield* dialToTheEnd
    console.log(
      `${name}: dispatched ${dial.contacts} contacts in ${dial.seconds.toFixed(1)} s = ${dial.perSecond.toFixed(0)}/s, ${dial.cpuMsPerContact.toFixed(2)} ms of this process's CPU a contact${dial.completed ? "" : " (deadline reached)"}`
    )
    const report = yield* reportWhileDialing
    console.log(
      `${name}: report first page at ${report.contacts} contacts (imported in ${report.importSeconds.toFixed(1)} s), ${report.samples} reads in ${report.samplingSeconds.toFixed(1)} s while ${report.dialedMeanwhile} calls were dialed (${(report.dialedMeanwhile / report.samplingSeconds).toFixed(0)}/s): p50 ${report.p50Ms.toFixed(1)} ms, p99 ${report.p99Ms.toFixed(1)} ms; event loop delay p99 ${report.loopP99Ms.toFixed(1)} ms, max ${report.loopMaxMs.toFixed(1)} ms`
    )
    console.log(`${name}: ${logWriter.lines} log lines written so far through the server's logger`)
  }).pipe(Effect.provide(engineOver(sql)), Effect.provide(serverLogger), Effect.provide(serverTracing))

const main = Effect.gen(function* () {
  console.log(
    `node ${process.version}; dial ${dialContacts} contacts, report at ${reportContacts}; the machine is shared`
  )
  for (const database of databases) {
    if (database === "postgres") {
      if (!(yield* Effect.promise(() => TestDatabase.serverReachable()))) {
        console.log("postgres: not reachable, skipped")
        continue
      }
      yield* bench("PostgreSQL", TestDatabase.layerFreshDatabase)
    } else if (database === "embedded") {
      yield* bench("embedded (PGlite)", EmbeddedPostgres.layer())
    }
  }
})

// at 11:00 UTC today, whatever the hour: the contacts (Warsaw numbers) are inside calling hours
Effect.runPromise(
  Effect.scoped(main).pipe(Effect.withClock(ShiftedClock.startingAt(CallingClock.start())))
).then(
  () => process.exit(0),
  (error) => {
    console.error(error)
    process.exit(1)
  }
)
