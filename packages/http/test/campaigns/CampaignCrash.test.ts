import { afterAll, describe, expect, it } from "@effect/vitest"
import { CallingClock } from "@voice-agent-platform/core/testing"
import { TestDatabase } from "@voice-agent-platform/pg/testing"
import {
  everyPage,
  removeDataDirectories,
  type Running,
  send,
  start,
  stop
} from "../support/ServerProcesses.js"
import { dialableNumbers } from "./DialableNumbers.js"

/**
 * The acceptance test of the dialer: a 1,000-contact campaign over two server processes on one PostgreSQL
 * database, one of them killed with SIGKILL twice mid-run and restarted. Every contact ends final, the
 * report's counts equal the runs in storage, no contact has more runs than its policy allows, the Do not
 * call contacts have none, the peak of simultaneous calls (live runs in the database, sampled by the
 * test) never exceeds `max_concurrency`, and the calls of a killed server are settled within 30 s.
 */

const adminToken = "operator-token-campaign-crash-0123456789"
const apiKey = `vap_${"K".repeat(40)}`
const maxConcurrency = 12
const maxAttempts = 2

const reachable = await TestDatabase.serverReachable()
if (!reachable) TestDatabase.warnUnreachable("the campaign SIGKILL test on PostgreSQL")

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Every page of a list, from whichever server answers. */
const everything = (port: number, path: string) => everyPage(port, path, apiKey)

describe.skipIf(!reachable)("a campaign over two servers, one killed twice", () => {
  afterAll(removeDataDirectories)

  it("finishes with every contact final, runs as the report counts, never above max_concurrency", async () => {
    const database = await TestDatabase.createDatabase()
    const env = {
      DATABASE_URL: TestDatabase.databaseUrl(database),
      ENCRYPTION_KEY: "an-encryption-key-for-the-campaign-crash-0123",
      ADMIN_TOKEN: adminToken,
      BOOTSTRAP_API_KEY: apiKey,
      SIM_CALL_SECONDS: "0.4",
      // at 11:00 UTC today, whatever the hour: the Warsaw numbers are inside calling hours
      ...CallingClock.env()
    }
    const servers: Array<Running> = []
    let sampling = true
    try {
      servers.push(await start(env))
      servers.push(await start(env))
      const [a] = servers
      const organizationId = Number(/organization (\d+)/.exec(a!.output())?.[1])
      expect(
        (
          await send(
            a!.port,
            "PATCH",
            `/admin/v1/organizations/${organizationId}`,
            { bearer: adminToken },
            {
              outbound_channels: 40
            }
          )
        ).status
      ).toBe(200)
      const agent = await send(
        a!.port,
        "POST",
        "/api/v1/agents/from-script",
        { apiKey },
        {
          agent: { greeting: "Hello {{initial_context.name}}" }
        }
      )
      expect(agent.status).toBe(200)
      const numbers = dialableNumbers(1000)
      const listed = numbers.slice(0, 5)
      for (const phone_number of listed) {
        expect(
          (await send(a!.port, "POST", "/api/v1/do-not-call", { apiKey }, { phone_number })).status
        ).toBe(200)
      }
      const created = await send(
        a!.port,
        "POST",
        "/api/v1/campaigns",
        { apiKey },
        {
          name: "Crash",
          agent_id: agent.json.public_id,
          max_concurrency: maxConcurrency,
          retry: { max_attempts: maxAttempts, retry_delay_seconds: 0 },
          contacts: numbers.map((phone_number, i) => ({ phone_number, initial_context: { name: `C${i}` } }))
        }
      )
      expect(created.status).toBe(200)
      expect(created.json.contacts).toMatchObject({ added: 1000, duplicates: 0, rejected: [] })
      const campaignPath = `/api/v1/campaigns/${created.json.campaign_id}`
      expect((await send(a!.port, "POST", `${campaignPath}/start`, { apiKey })).json.status).toBe("running")

      // the peak of simultaneous calls: the campaign's live runs in the database (not the dialer's own
      // counter, which could not show an overshoot), sampled the whole time
      const campaignId = created.json.campaign_id
      let peak = 0
      let samples = 0
      const sampler = (async () => {
        while (sampling) {
          const [live] = await TestDatabase.query<{ readonly n: number }>(
            database,
            `SELECT count(*)::int AS n FROM runs
             WHERE campaign_id = $1 AND status IN ('queued', 'ringing', 'in_progress')`,
            [campaignId]
          ).catch(() => [])
          if (live !== undefined) {
            peak = Math.max(peak, live.n)
            samples++
          }
          await sleep(20)
        }
      })()
      /** The contacts in progress and the run of each: the calls placed so far that have not ended. */
      const inProgress = () =>
        TestDatabase.query<{ readonly id: string; readonly last_run_id: string }>(
          database,
          `SELECT id::text, last_run_id::text FROM campaign_contacts WHERE campaign_id = $1 AND status = 'in_progress'`,
          [campaignId]
        )
      const finished = async () => (await send(servers[1]!.port, "GET", campaignPath, { apiKey })).json
      const untilFinal = async (atLeast: number) => {
        for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
          const campaign = await finished()
          if (campaign.counts.completed + campaign.counts.failed + campaign.counts.skipped >= atLeast) return
          await sleep(100)
        }
        throw new Error(`fewer than ${atLeast} contacts final in time`)
      }
      const settledWithin: Array<number> = []
      let cutCalls = 0
      for (const progress of [200, 500]) {
        await untilFinal(progress)
        // kill while both servers have calls in flight (two lease owners), for up to 10 s
        for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
          const owners = await TestDatabase.query<{ readonly n: number }>(
            database,
            `SELECT count(DISTINCT lease_owner)::int AS n FROM campaign_contacts
             WHERE campaign_id = $1 AND status = 'in_progress'`,
            [campaignId]
          )
          if (owners[0]!.n >= 2) break
          await sleep(5)
        }
        servers[0]!.child.kill("SIGKILL")
        await servers[0]!.exited
        const killedAt = Date.now()
        // the killed server's calls (and the survivor's, which end in a moment) at the time of the kill
        const cut = await inProgress()
        cutCalls += cut.length
        servers[0] = await start(servers[0]!.env)
        for (;;) {
          const still = new Set((await inProgress()).map((c) => `${c.id}/${c.last_run_id}`))
          if (!cut.some((c) => still.has(`${c.id}/${c.last_run_id}`))) break
          if (Date.now() - killedAt > 30_000) break
          await sleep(100)
        }
        settledWithin.push(Date.now() - killedAt)
      }
      // recovery runs on its own schedule: a dead server's calls are settled well within 30 s
      console.info(`${cutCalls} calls cut by the kills, settled within ${settledWithin.join(", ")} ms`)
      expect(cutCalls).toBeGreaterThan(0)
      for (const ms of settledWithin) expect(ms).toBeLessThanOrEqual(30_000)
      for (const deadline = Date.now() + 240_000; Date.now() < deadline;) {
        if ((await finished()).status === "completed") break
        await sleep(250)
      }
      sampling = false
      await sampler

      const campaign = await finished()
      expect(campaign.status).toBe("completed")
      expect(samples).toBeGreaterThan(100)
      expect(peak).toBeGreaterThan(1)
      expect(peak).toBeLessThanOrEqual(maxConcurrency)

      const report = await send(servers[0]!.port, "GET", `${campaignPath}/report?limit=1`, { apiKey })
      const summary = report.json.summary
      expect(summary).toMatchObject({ total: 1000, pending: 0, in_progress: 0 })
      expect(summary.completed + summary.failed + summary.skipped).toBe(1000)
      expect(summary.skipped).toBe(listed.length)
      // the crashes cut calls short: those attempts failed and were tried again
      expect(summary.attempts).toBeGreaterThan(995)

      const items = await everything(servers[0]!.port, `${campaignPath}/report`)
      expect(items).toHaveLength(1000)
      const runs = await everything(servers[0]!.port, `/api/v1/agents/${agent.json.public_id}/conversations`)
      expect(runs).toHaveLength(summary.attempts)
      expect(runs.every((run) => ["completed", "failed"].includes(run.status))).toBe(true)
      const runsPerNumber = new Map<string, number>()
      for (const run of runs) {
        const number = run.initial_context.phone_number
        runsPerNumber.set(number, (runsPerNumber.get(number) ?? 0) + 1)
      }
      for (const item of items) {
        expect(["completed", "failed", "skipped"]).toContain(item.status)
        expect(runsPerNumber.get(item.phone_number) ?? 0).toBe(item.attempts)
        expect(item.attempts).toBeLessThanOrEqual(maxAttempts)
      }
      for (const number of listed) expect(runsPerNumber.has(number)).toBe(false)
      expect(items.filter((item) => item.last_error === "do_not_call")).toHaveLength(listed.length)
    } finally {
      sampling = false
      await Promise.all(servers.map(stop))
      await TestDatabase.dropDatabase(database)
    }
  }, 420_000)
})
