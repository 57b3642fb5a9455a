import { afterAll, describe, expect, it } from "@effect/vitest"
import { CallingClock } from "@voice-agent-platform/core/testing"
import { FakeOpenAiServer } from "@voice-agent-platform/language-models/testing"
import { TestDatabase } from "@voice-agent-platform/pg/testing"
import {
  FakeCallers,
  FakeDeepgram,
  FakePublicAddress,
  FakeSpeechServer,
  FakeTwilio
} from "@voice-agent-platform/voice/testing"
import { Effect, Exit, Scope } from "effect"
import {
  everyPage,
  freePort,
  removeDataDirectories,
  type Running,
  send,
  signalGroup,
  startAll,
  stop
} from "../support/ServerProcesses.js"
import { dialableNumbers } from "./DialableNumbers.js"

/**
 * The acceptance test of calls that speak (issue #27): a 50-contact campaign over the fake Twilio, two
 * server processes on one PostgreSQL database behind one public address (`FakePublicAddress`: Twilio's
 * webhooks and media sockets land on either), one of them killed (SIGKILL of its process group) while
 * both have calls. Every call is played by `FakeCallers`: answered, the caller speaks twice (the fake
 * Deepgram hears it in the audio), the agent answers through the fake model and the fake speech server,
 * and the second time the caller asks it to end the call, which it does through Twilio's REST API. A
 * call whose server died loses its media socket: Twilio then ends it (`completed`) and the survivor
 * settles it. Every contact ends final, no number is dialled twice (one attempt each: the retry policy's
 * default, so any second dial is a double dial), the organization's channels all come back (none held
 * at the end, never more held than it has), and each contact's status agrees with its run's.
 */

const adminToken = "operator-token-voice-campaign-crash-0123"
const apiKey = `vap_${"V".repeat(40)}`
const contactsCount = 50
const channels = 10
const endpointingMs = 200

const reachable = await TestDatabase.serverReachable()
if (!reachable) TestDatabase.warnUnreachable("the voice campaign SIGKILL test on PostgreSQL")

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Every page of a list, from whichever server answers. */
const everything = (port: number, path: string) => everyPage(port, path, apiKey)

/** The contact's status its last run's end gives (RetryPolicy.afterAttempt with one attempt). */
const contactStatusOf = (runStatus: string) => (runStatus === "completed" ? "completed" : "failed")

describe.skipIf(!reachable)("a voice campaign over the fake carrier, two servers, one killed", () => {
  afterAll(removeDataDirectories)

  it("ends every contact, dials no number twice, gives every channel back", async () => {
    const database = await TestDatabase.createDatabase()
    const scope = Effect.runSync(Scope.make())
    const inScope = <A>(effect: Effect.Effect<A, never, Scope.Scope>) =>
      Effect.runPromise(Scope.extend(effect, scope))
    const servers: Array<Running> = []
    let sampling = true
    let sampler: Promise<void> = Promise.resolve()
    try {
      // the servers' clock reads 11:00 UTC today (calling hours), and so does Twilio's
      const clock = CallingClock.env()
      const twilio = await inScope(
        FakeTwilio.start({ now: () => Date.now() + Number(clock.CLOCK_OFFSET_SECONDS) * 1000 })
      )
      const deepgram = await inScope(
        FakeDeepgram.make({
          defaultScript: {
            steps: [],
            delayMs: 20,
            spoken: { texts: ["When is my appointment", "Thank you, please end_call"], endpointingMs }
          }
        })
      )
      const speech = await inScope(FakeSpeechServer.start)
      const model = await inScope(FakeOpenAiServer.start)
      const address = await inScope(FakePublicAddress.start())
      const callers = await inScope(
        FakeCallers.start({ twilio, turns: 2, speechMs: 300, endpointingMs, maxCallMs: 30_000 })
      )
      const ports = [await freePort(), await freePort()]
      const env = {
        DATABASE_URL: TestDatabase.databaseUrl(database),
        ENCRYPTION_KEY: "an-encryption-key-for-the-voice-campaign-0123",
        ADMIN_TOKEN: adminToken,
        BOOTSTRAP_API_KEY: apiKey,
        ...clock,
        TELEPHONY: "twilio",
        TWILIO_ACCOUNT_SID: twilio.accountSid,
        TWILIO_AUTH_TOKEN: twilio.authToken,
        TWILIO_API_BASE_URL: twilio.baseUrl,
        TWILIO_DEFAULT_FROM: "+48221234567",
        PUBLIC_BASE_URL: address.url,
        MEDIA_STREAM_SECRET: "the media stream secret of the voice campaign test, 32+ bytes",
        STT_PROVIDER: "deepgram",
        DEEPGRAM_API_KEY: deepgram.apiKey,
        DEEPGRAM_URL: deepgram.url,
        TTS_PROVIDER: "openai",
        TTS_BASE_URL: speech.openAiBaseUrl,
        TTS_API_KEY: FakeSpeechServer.openAiKey,
        LLM_PROVIDER: "openai",
        LLM_BASE_URL: model.baseUrl,
        LLM_API_KEY: "sk-test-0123456789abcdefghijklmnopqrstuvwxyz",
        LLM_MODEL: "fake-model-1"
      }
      servers.push(...(await startAll(ports.map((port) => ({ ...env, PORT: String(port) })))))
      address.setServers(ports)
      const [a, b] = servers as [Running, Running]
      const organizationId = Number(/organization (\d+)/.exec(a.output())?.[1])
      const patched = await send(
        a.port,
        "PATCH",
        `/admin/v1/organizations/${organizationId}`,
        { bearer: adminToken },
        { outbound_channels: channels }
      )
      expect(patched.status).toBe(200)
      const agent = await send(
        a.port,
        "POST",
        "/api/v1/agents/from-script",
        { apiKey },
        { agent: { greeting: "Hello, this is the clinic.", agent_goal: "Confirm the appointment" } }
      )
      expect(agent.status).toBe(200)
      const agentId = agent.json.public_id as string
      const tool = await send(
        a.port,
        "POST",
        "/api/v1/tools",
        { apiKey },
        {
          name: "End call",
          definition: { type: "end_call", config: { messageType: "custom", customMessage: "Goodbye." } }
        }
      )
      expect(tool.status).toBe(200)
      expect(
        (
          await send(
            a.port,
            "PATCH",
            `/api/v1/agents/${agentId}`,
            { apiKey },
            { tools: [tool.json.tool_uuid] }
          )
        ).status
      ).toBe(200)
      const numbers = dialableNumbers(contactsCount)
      const created = await send(
        a.port,
        "POST",
        "/api/v1/campaigns",
        { apiKey },
        {
          name: "Voice crash",
          agent_id: agentId,
          max_concurrency: channels,
          contacts: numbers.map((phone_number, i) => ({ phone_number, initial_context: { name: `C${i}` } }))
        }
      )
      expect(created.status).toBe(200)
      expect(created.json.retry.max_attempts).toBe(1)
      const campaignId = created.json.campaign_id
      const campaignPath = `/api/v1/campaigns/${campaignId}`
      expect((await send(a.port, "POST", `${campaignPath}/start`, { apiKey })).json.status).toBe("running")

      // the channels the organization holds (the database's, not a server's view), sampled the whole time
      const held = async () =>
        (
          await TestDatabase.query<{ readonly n: number }>(
            database,
            "SELECT count(*)::int AS n FROM channel_reservations WHERE organization_id = $1",
            [organizationId]
          )
        )[0]!.n
      let peak = 0
      sampler = (async () => {
        while (sampling) {
          peak = Math.max(peak, await held().catch(() => 0))
          await sleep(20)
        }
      })()
      const campaign = async () => (await send(b.port, "GET", campaignPath, { apiKey })).json
      const finalCount = (c: any) => c.counts.completed + c.counts.failed + c.counts.skipped
      for (const deadline = Date.now() + 60_000; finalCount(await campaign()) < 15;) {
        if (Date.now() > deadline) throw new Error("fewer than 15 contacts final in time")
        await sleep(100)
      }
      // kill A while both servers hold calls (two lease owners) and A serves some media sockets
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
      signalGroup(a.child, "SIGKILL")
      await a.exited
      const cut = await TestDatabase.query<{ readonly n: number }>(
        database,
        "SELECT count(*)::int AS n FROM campaign_contacts WHERE campaign_id = $1 AND status = 'in_progress'",
        [campaignId]
      )
      console.info(`${cut[0]!.n} contacts in progress when server A was killed`)
      expect(cut[0]!.n).toBeGreaterThan(0)

      for (const deadline = Date.now() + 240_000; (await campaign()).status !== "completed";) {
        if (Date.now() > deadline)
          throw new Error(`the campaign did not complete: ${JSON.stringify(await campaign())}`)
        await sleep(250)
      }
      // every call the carrier placed has ended at the carrier, and its end was reported
      for (const deadline = Date.now() + 30_000; callers.live() > 0 && Date.now() < deadline;) await sleep(50)
      expect(callers.live()).toBe(0)
      sampling = false
      await sampler

      const report = await send(b.port, "GET", `${campaignPath}/report?limit=1`, { apiKey })
      expect(report.json.summary).toMatchObject({
        total: contactsCount,
        pending: 0,
        in_progress: 0,
        skipped: 0
      })
      expect(report.json.summary.completed + report.json.summary.failed).toBe(contactsCount)
      const items = await everything(b.port, `${campaignPath}/report`)
      expect(items).toHaveLength(contactsCount)

      // no number dialled twice: one attempt each, one dial at most each
      const dials = twilio
        .requests()
        .filter((r) => r.method === "POST" && r.path.endsWith("/Calls.json"))
        .map((r) => r.params.find(([name]) => name === "To")?.[1] ?? "")
      const dialsOf = new Map<string, number>()
      for (const to of dials) dialsOf.set(to, (dialsOf.get(to) ?? 0) + 1)
      expect([...dialsOf].filter(([, n]) => n > 1)).toEqual([])
      expect(new Set(dials).size).toBe(dials.length)
      for (const to of dials) expect(numbers).toContain(to)

      // each contact final, with one attempt, and as its run ended
      const runs = await everything(b.port, `/api/v1/agents/${agentId}/conversations`)
      const runById = new Map(runs.map((run) => [run.workflow_run_id, run]))
      for (const item of items) {
        expect(["completed", "failed"]).toContain(item.status)
        expect(item.attempts).toBe(1)
        const run = runById.get(item.last_run_id)
        expect(run, `contact ${item.phone_number}'s run`).toBeDefined()
        expect(["completed", "failed", "busy", "no_answer", "canceled"]).toContain(run.status)
        expect(item.last_run_status).toBe(run.status)
        expect(item.status).toBe(contactStatusOf(run.status))
        // a contact dialled nowhere never talked
        if (!dialsOf.has(item.phone_number)) expect(item.status).toBe("failed")
      }
      expect(runs).toHaveLength(contactsCount)
      // the calls that ran their course (the survivor's, and the killed server's placed calls answered
      // after the kill) outnumber those cut
      const hungUp = callers.outcomes().filter((o) => o.end === "hung_up")
      // the kill cut calls whose media socket was on the killed server, or was opening on it (its answer
      // given just before the kill): Twilio ended those
      const cutShort = callers
        .outcomes()
        .filter((o) => o.end === "media_closed" || o.end === "stream_not_opened")
      expect(cutShort.length, "calls whose media socket the kill closed").toBeGreaterThan(0)
      expect(hungUp.length).toBeGreaterThan(contactsCount / 2)
      for (const outcome of hungUp) {
        expect(outcome.turns).toBe(2)
        const item = items.find((i) => i.phone_number === outcome.to)
        expect(item?.status, `the contact of ${outcome.to}, whose call ran its course`).toBe("completed")
      }
      // every channel back, and never more held than the organization has
      expect(peak).toBeGreaterThan(1)
      expect(peak).toBeLessThanOrEqual(channels)
      expect(await held()).toBe(0)
      const ends = new Map<string, number>()
      for (const o of callers.outcomes()) ends.set(o.end, (ends.get(o.end) ?? 0) + 1)
      const problems = callers
        .outcomes()
        .flatMap((o) => (o.problem === null ? [] : [`${o.end}: ${o.problem}`]))
      console.info(
        `calls' ends at the carrier: ${JSON.stringify(Object.fromEntries(ends))}; webhook problems: ${problems.slice(0, 5).join(" | ") || "none"}`
      )
      console.info(
        `${dials.length} dials, ${hungUp.length} calls ran their course, ${cutShort.length} were cut by the kill, ${report.json.summary.completed} contacts completed, ${report.json.summary.failed} failed; peak ${peak} channels held`
      )
    } finally {
      sampling = false
      await sampler
      await Promise.all(servers.map(stop))
      await Effect.runPromise(Scope.close(scope, Exit.void))
      await TestDatabase.dropDatabase(database)
    }
  }, 420_000)
})
