import { afterAll, describe, expect, it } from "@effect/vitest"
import { FakeOpenAiServer, type RecordedRequest } from "@voice-agent-platform/language-models/testing"
import { eventuallyDefined } from "@voice-agent-platform/core/testing"
import { TestDatabase } from "@voice-agent-platform/pg/testing"
import { Effect, Exit, Scope } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import {
  dataDirectory,
  removeDataDirectories,
  type Running,
  send,
  signalGroup,
  start,
  startAll,
  stop
} from "../support/ServerProcesses.js"

/**
 * The acceptance test of the analysis queue: two bundled servers over one PostgreSQL database analyse
 * ended chats through an OpenAI-compatible model (the fake server, answering slowly), and one of them is
 * killed with SIGKILL while its model requests are in flight, restarted, and killed again. Every run is
 * analysed exactly once: one `analysis` line in the ledger, one `call.analyzed` delivery, its tokens
 * counted once, its agent's analysed count equal to the runs; and the jobs the killed server held were
 * taken over by another (the model saw them asked again by another server).
 */

const apiKey = `vap_${"A".repeat(40)}`
const runs = 30
/** How long the model takes over each answer once the chats are made: analyses stay in flight that long. */
const modelDelayMs = 2_500
/** Kills of the server that holds jobs; each must cut at least one analysis short. */
const kills = 2

const reachable = await TestDatabase.serverReachable()
if (!reachable) TestDatabase.warnUnreachable("the analysis SIGKILL test on PostgreSQL")

/** Every page of a list. */
const everything = async (port: number, path: string): Promise<Array<any>> => {
  const items: Array<any> = []
  const join = path.includes("?") ? "&" : "?"
  for (let page = 1; ; page++) {
    const answer = await send(port, "GET", `${path}${join}limit=100&page=${page}`, { apiKey })
    expect(answer.status, JSON.stringify(answer.json)).toBe(200)
    items.push(...answer.json.items)
    if (page >= answer.json.total_pages) return items
  }
}

/** Ids in ascending order. */
const ascending = (ids: ReadonlyArray<number>) => [...ids].sort((a, b) => a - b)

/** Runs `work` over `items`, `width` at a time. */
const inParallel = async <A>(
  items: ReadonlyArray<A>,
  width: number,
  work: (item: A, i: number) => Promise<void>
) => {
  let next = 0
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++
        await work(items[i]!, i)
      }
    })
  )
}

/** A model request as the test reads it: whose key sent it, which chat it analyses, whether it was cut. */
interface AnalysisRequest {
  readonly key: string
  readonly chat: number
  readonly cut: boolean
}

/** The fake's `call_analysis` requests; each chat's conversation names it (`chat-tag-<n>`). */
const analysisRequests = (recorded: ReadonlyArray<RecordedRequest>): Array<AnalysisRequest> =>
  recorded.flatMap((request) => {
    const body = request.body as any
    if (body?.response_format?.json_schema?.name !== "call_analysis") return []
    const tag = /chat-tag-(\d+)\b/.exec(JSON.stringify(body.messages))
    if (tag === null) throw new Error("a call_analysis request names no chat")
    return [
      {
        key: (request.headers["authorization"] ?? "").replace(/^Bearer /, ""),
        chat: Number(tag[1]),
        cut: request.client_closed
      }
    ]
  })

/** A webhook receiver on 127.0.0.1 answering 200 to everything. */
const receiver = () =>
  new Promise<{ readonly origin: string; readonly close: () => void }>((resolve) => {
    const server = createServer((request, response) => {
      request.resume()
      request.on("end", () => response.writeHead(200).end())
    })
    server.listen(0, "127.0.0.1", () =>
      resolve({
        origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => {
          server.closeAllConnections()
          server.close()
        }
      })
    )
  })

describe.skipIf(!reachable)("analysis over two servers on one database, one killed mid-job", () => {
  afterAll(removeDataDirectories)

  it("analyses every ended run exactly once, the killed server's jobs taken over", async () => {
    const began = Date.now()
    const database = await TestDatabase.createDatabase()
    const scope = Effect.runSync(Scope.make())
    const hooks = await receiver()
    const servers: Array<Running> = []
    try {
      const fake = await Effect.runPromise(Scope.extend(FakeOpenAiServer.start, scope))
      const recorded = () => Effect.runPromise(fake.requests)
      const env = {
        DATABASE_URL: TestDatabase.databaseUrl(database),
        // the servers share their files (transcripts) as they would share a disk or a bucket
        DATA_DIR: dataDirectory(),
        ENCRYPTION_KEY: "an-encryption-key-for-the-analysis-crash-0123",
        BOOTSTRAP_API_KEY: apiKey,
        OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
        LLM_PROVIDER: "openai",
        LLM_BASE_URL: fake.baseUrl,
        LLM_MODEL: "fake-model",
        LLM_TIMEOUT_MS: "20000",
        ANALYSIS_LEASE_SECONDS: "5",
        IMPROVEMENTS_EVERY_RUNS: "0"
      }
      // each server (and each start of A) sends its own key: the fake's record tells who asked what
      servers.push(
        ...(await startAll([
          { ...env, LLM_API_KEY: "key-a-0" },
          { ...env, LLM_API_KEY: "key-b" }
        ]))
      )
      const port = (i: number) => servers[i % 2]!.port

      const agent = await send(
        port(0),
        "POST",
        "/api/v1/agents/from-script",
        { apiKey },
        {
          agent: {
            greeting: "Hello, this is Ada.",
            data_fields: [{ name: "reference", description: "The caller's reference" }]
          }
        }
      )
      expect(agent.status, JSON.stringify(agent.json)).toBe(200)
      const agentId = agent.json.public_id as string
      const codes = { reached: "The caller was reached", unreached: "The caller was not reached" }
      const patched = await send(
        port(0),
        "PATCH",
        `/api/v1/agents/${agentId}`,
        { apiKey },
        {
          call_disposition_codes: codes
        }
      )
      expect(patched.status, JSON.stringify(patched.json)).toBe(200)
      const endpoint = await send(
        port(1),
        "POST",
        "/api/v1/webhooks",
        { apiKey },
        {
          url: `${hooks.origin}/hooks`,
          events: ["call.analyzed"]
        }
      )
      expect(endpoint.status, JSON.stringify(endpoint.json)).toBe(200)

      // the chats, spread over both servers, each saying its tag (the model answers at once meanwhile)
      const conversations = `/api/v1/agents/${agentId}/conversations`
      const runIds: Array<number> = Array.from({ length: runs }, () => 0)
      await inParallel(runIds, 4, async (_, i) => {
        const created = await send(port(i), "POST", conversations, { apiKey }, { mode: "chat" })
        expect(created.status, JSON.stringify(created.json)).toBe(200)
        runIds[i] = created.json.workflow_run_id
        const said = await send(
          port(i + 1),
          "POST",
          `${conversations}/${runIds[i]}/messages`,
          { apiKey },
          {
            text: `Hello, this is chat-tag-${i}.`
          }
        )
        expect(said.status, JSON.stringify(said.json)).toBe(200)
      })
      // from now on every analysis takes the model a while; the ends add the jobs
      await Effect.runPromise(fake.setDefaultDelay(modelDelayMs))
      await inParallel(runIds, 4, async (runId, i) => {
        const ended = await send(port(i), "POST", `${conversations}/${runId}/end`, { apiKey })
        expect(ended.status, JSON.stringify(ended.json)).toBe(200)
        expect(ended.json).toMatchObject({ status: "completed", analysis_status: "pending" })
      })

      // kill A as soon as the model is seen working on one of its jobs (it answers only 2.5 s later), then
      // start it again with a new key; a kill that cut nothing short (the machine stalled) is tried again
      const cutShort: Array<AnalysisRequest> = []
      let killed = 0
      for (let incarnation = 0; killed < kills; incarnation++) {
        expect(incarnation, "kills that cut no analysis short").toBeLessThan(kills + 2)
        const key = `key-a-${incarnation}`
        await eventuallyDefined(
          async () =>
            analysisRequests(await recorded()).some((request) => request.key === key) ? true : undefined,
          { what: `server A (${key}) asking the model for an analysis`, withinMs: 30_000 }
        )
        signalGroup(servers[0]!.child, "SIGKILL")
        await servers[0]!.exited
        // its connections closed with it: the fake marks the requests it was waiting on as cut
        const cut = await eventuallyDefined(
          async () => {
            const requests = analysisRequests(await recorded()).filter((r) => r.key === key && r.cut)
            return requests.length > 0 ? requests : undefined
          },
          { what: `the analyses A (${key}) had in flight`, withinMs: 5_000 }
        ).catch(() => [])
        cutShort.push(...cut)
        if (cut.length > 0) killed++
        servers[0] = await start({ ...servers[0]!.env, LLM_API_KEY: `key-a-${incarnation + 1}` })
      }

      // every run analysed, by whichever server holds its job once the killed one's leases ran out
      await eventuallyDefined(
        async () => {
          const [row] = await TestDatabase.query<{ readonly n: number }>(
            database,
            `SELECT count(*)::int AS n FROM runs WHERE workflow_run_id = ANY($1) AND analysis_status = 'completed'`,
            [runIds]
          )
          return row!.n === runs ? true : undefined
        },
        { what: "every run analysed", withinMs: 90_000 }
      )

      // the runs, as the API shows them: analysed, with the analysis' disposition and summary
      const listed = await everything(port(1), conversations)
      expect(ascending(listed.map((run) => run.workflow_run_id))).toEqual(ascending(runIds))
      const shown: Array<any> = []
      for (const [i, runId] of runIds.entries()) {
        const answer = await send(port(i), "GET", `${conversations}/${runId}`, { apiKey })
        expect(answer.status).toBe(200)
        shown.push(answer.json)
      }
      for (const run of shown) {
        expect(run).toMatchObject({
          status: "completed",
          analysis_status: "completed",
          disposition: "reached"
        })
        expect(run.summary).toBe("example")
      }

      // the ledger: one call line and one analysis line per run, and each run's tokens counted once
      const period = `from=${new Date(began - 3_600_000).toISOString()}&to=${new Date(Date.now() + 3_600_000).toISOString()}`
      const lines = await everything(port(0), `/api/v1/usage/runs?${period}`)
      for (const kind of ["call", "analysis"]) {
        expect(
          ascending(lines.filter((line) => line.kind === kind).map((line) => line.workflow_run_id))
        ).toEqual(ascending(runIds))
      }
      for (const run of shown) {
        const mine = lines.filter((line) => line.workflow_run_id === run.workflow_run_id)
        expect(run.cost.tokens.prompt).toBe(mine.reduce((sum, line) => sum + line.prompt_tokens, 0))
        expect(run.cost.tokens.completion).toBe(mine.reduce((sum, line) => sum + line.completion_tokens, 0))
      }
      // one call.analyzed per run, and the agent counted each run once
      const deliveries = await everything(port(1), `/api/v1/webhooks/${endpoint.json.id}/deliveries`)
      expect(deliveries.every((delivery) => delivery.event_type === "call.analyzed")).toBe(true)
      expect(ascending(deliveries.map((delivery) => delivery.workflow_run_id))).toEqual(ascending(runIds))
      const [counted] = await TestDatabase.query<{ readonly analysed: string }>(
        database,
        "SELECT analysed::text FROM agent_analysis_counts"
      )
      expect(Number(counted!.analysed)).toBe(runs)

      // the model read every chat, and each chat A was cut off from was asked again by another server
      const requests = analysisRequests(await recorded())
      expect(new Set(requests.map((request) => request.chat)).size).toBe(runs)
      for (const cut of cutShort) {
        expect(
          requests.some((request) => request.chat === cut.chat && request.key !== cut.key && !request.cut)
        ).toBe(true)
      }
      console.info(
        `${runs} runs, ${requests.length} analysis requests, ${cutShort.length} cut by ${kills} kills, ` +
          `${Date.now() - began} ms`
      )
      for (const server of servers.splice(0)) expect(await stop(server)).toBe(0)
    } finally {
      await Promise.all(servers.map(stop))
      await Effect.runPromise(Scope.close(scope, Exit.void))
      hooks.close()
      await TestDatabase.dropDatabase(database)
    }
  }, 180_000)
})
