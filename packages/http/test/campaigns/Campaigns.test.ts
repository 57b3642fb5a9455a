import { HttpClientRequest } from "@effect/platform"
import type { HttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { CallEvents, CampaignDialer, DoNotCallList, RunId } from "@voice-agent-platform/core"
import { Effect, TestClock } from "effect"
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"

// 12:00 in Warsaw (CET, UTC+1): inside calling hours.
const warsawNoon = "2026-02-10T11:00:00.000Z"

type Body = Record<string, any>

const script = { agent: { greeting: "Hello {{initial_context.name}}!", agent_goal: "Confirm the visit" } }

/** An organization with an agent, and a client holding its key. */
const setup = Effect.gen(function* () {
  const owner = yield* organization({ outbound_channels: 4 })
  const client = yield* rawClient(owner.apiKey)
  const created = yield* send(client, json("POST", "/api/v1/agents/from-script", script))
  expect(created.status).toBe(200)
  return { ...owner, client, agent: created.body as { id: number; public_id: string } }
})

const post = (client: HttpClient.HttpClient, url: string, body: unknown = {}) =>
  send(client, json("POST", url, body))
const get = (client: HttpClient.HttpClient, url: string, accept?: string) =>
  send(
    client,
    accept === undefined
      ? HttpClientRequest.get(url)
      : HttpClientRequest.get(url).pipe(HttpClientRequest.setHeader("accept", accept))
  )
const csvBody = (url: string, text: string) =>
  HttpClientRequest.post(url).pipe(HttpClientRequest.bodyText(text, "text/csv"))
const formBody = (url: string, text: string) => {
  const form = new FormData()
  form.append("file", new Blob([text], { type: "text/csv" }), "contacts.csv")
  return HttpClientRequest.post(url).pipe(HttpClientRequest.bodyFormData(form))
}

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("campaigns over HTTP, %s storage", (_, server) => {
  it.effect("creates, lists, reads and moves a campaign through its states, 409 where not allowed", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(new Date(warsawNoon).getTime())
      const { client, agent } = yield* setup
      const created = yield* post(client, "/api/v1/campaigns", {
        name: " Spring ",
        agent_id: agent.id,
        retry: { max_attempts: 3, retry_on: ["busy"] },
        contacts: [
          { phone_number: "+48 500 100 001", initial_context: { name: "Ola" } },
          { phone_number: "nope" }
        ]
      })
      expect(created.status).toBe(200)
      const campaign = created.body as Body
      expect(campaign).toEqual({
        campaign_id: expect.any(Number),
        name: "Spring",
        agent_id: agent.public_id,
        workflow_id: agent.id,
        from_phone_number_id: null,
        status: "created",
        max_concurrency: 4,
        retry: { max_attempts: 3, retry_delay_seconds: 3600, retry_on: ["busy"] },
        counts: { total: 1, pending: 1, in_progress: 0, completed: 0, failed: 0, skipped: 0 },
        created_at: warsawNoon,
        started_at: null,
        completed_at: null,
        contacts: {
          added: 1,
          duplicates: 0,
          rejected: [{ row: 2, phone_number: "nope", detail: expect.stringContaining("valid phone number") }]
        }
      })
      const url = `/api/v1/campaigns/${campaign.campaign_id}`
      const { contacts: _, ...shown } = campaign
      expect((yield* get(client, url)).body).toEqual(shown)
      const list = yield* get(client, "/api/v1/campaigns?limit=10")
      expect(list.body).toMatchObject({ total_count: 1, total_pages: 1, page: 1, limit: 10, items: [shown] })

      expect((yield* post(client, `${url}/pause`)).status).toBe(409)
      expect((yield* post(client, `${url}/resume`)).body).toEqual({
        detail: "Cannot resume a campaign that is created"
      })
      const started = yield* post(client, `${url}/start`)
      expect(started.body).toMatchObject({ status: "running", started_at: warsawNoon })
      expect((yield* post(client, `${url}/start`)).status).toBe(409)
      expect((yield* post(client, `${url}/pause`)).body).toMatchObject({ status: "paused" })
      expect((yield* post(client, `${url}/resume`)).body).toMatchObject({ status: "running" })
      const canceled = yield* post(client, `${url}/cancel`)
      expect(canceled.body).toMatchObject({
        status: "canceled",
        completed_at: warsawNoon,
        counts: { total: 1, pending: 0, skipped: 1 }
      })
      const report = yield* get(client, `${url}/report`)
      expect((report.body as Body).items[0]).toMatchObject({ status: "skipped", last_error: "canceled" })
      expect((yield* post(client, `${url}/resume`)).status).toBe(409)
    }).pipe(Effect.provide(server))
  )

  it.effect("refuses bad bodies (422), unknown or foreign campaigns and agents (404)", () =>
    Effect.gen(function* () {
      const { client, agent } = yield* setup
      const stranger = yield* setup
      const bad = yield* post(client, "/api/v1/campaigns", {
        name: "",
        agent_id: agent.id,
        max_concurrency: 0
      })
      expect(bad.status).toBe(422)
      const locs = (bad.body as Body).detail.map((d: Body) => d.loc.join("."))
      expect(locs).toEqual(expect.arrayContaining(["body.name", "body.max_concurrency"]))
      const retry = yield* post(client, "/api/v1/campaigns", {
        name: "x",
        agent_id: agent.id,
        retry: { retry_on: ["completed"] }
      })
      expect(retry.status).toBe(422)
      expect(
        (yield* post(client, "/api/v1/campaigns", { name: "x", agent_id: stranger.agent.id })).status
      ).toBe(404)
      const created = (yield* post(client, "/api/v1/campaigns", { name: "x", agent_id: agent.public_id }))
        .body as Body
      const url = `/api/v1/campaigns/${created.campaign_id}`
      for (const [method, path] of [
        ["GET", ""],
        ["GET", "/report"],
        ["POST", "/start"],
        ["POST", "/contacts"]
      ] as const) {
        const request =
          method === "GET"
            ? HttpClientRequest.get(`${url}${path}`)
            : json("POST", `${url}${path}`, { contacts: [] })
        const foreign = yield* send(stranger.client, request)
        expect(foreign.status, `${method} ${path}`).toBe(404)
      }
      expect((yield* get(client, "/api/v1/campaigns/99999999999")).status).toBe(404)
      expect((yield* get(client, `${url}/report?status=done`)).status).toBe(422)
    }).pipe(Effect.provide(server))
  )

  it.effect(
    "imports contacts as JSON, a text/csv body or a multipart file; a malformed file imports nothing",
    () =>
      Effect.gen(function* () {
        const { client, agent } = yield* setup
        const created = (yield* post(client, "/api/v1/campaigns", { name: "Import", agent_id: agent.id }))
          .body as Body
        const url = `/api/v1/campaigns/${created.campaign_id}/contacts`
        const asJson = yield* post(client, url, {
          contacts: [{ phone_number: "+48500100001" }, { phone_number: "+48 500 100 001" }]
        })
        expect(asJson.body).toEqual({ added: 1, duplicates: 1, rejected: [] })
        const csv =
          '\uFEFFphone_number,name\r\n+48500100001,Ola\r\n+48500100002,"Kowalski, Jan"\r\nbad,Zed\r\n'
        const asCsv = yield* send(client, csvBody(url, csv))
        expect(asCsv.body).toEqual({
          added: 1,
          duplicates: 1,
          rejected: [{ row: 3, phone_number: "bad", detail: expect.any(String) }]
        })
        const asForm = yield* send(client, formBody(url, "phone_number,city\n+48500100003,Kraków\n"))
        expect(asForm.body).toEqual({ added: 1, duplicates: 0, rejected: [] })

        const malformed = yield* send(client, csvBody(url, 'phone_number,name\n+48500100004,"open\n'))
        expect(malformed.status).toBe(422)
        expect((malformed.body as Body).detail[0]).toMatchObject({
          loc: ["body"],
          msg: expect.stringContaining("malformed")
        })
        const noColumn = yield* send(client, formBody(url, "number\n+48500100005\n"))
        expect(noColumn.status).toBe(422)
        expect((noColumn.body as Body).detail[0].loc).toEqual(["body", "file"])
        const badJson = yield* post(client, url, { contacts: [{ phone: "+48500100006" }] })
        expect(badJson.status).toBe(422)
        const other = yield* send(
          client,
          HttpClientRequest.post(url).pipe(HttpClientRequest.bodyText("x", "text/plain"))
        )
        expect(other.status).toBe(415)

        const report = yield* get(client, `/api/v1/campaigns/${created.campaign_id}/report`)
        expect((report.body as Body).summary.total).toBe(3)
        expect((report.body as Body).items.map((i: Body) => i.phone_number)).toEqual([
          "+48500100001",
          "+48500100002",
          "+48500100003"
        ])
        yield* post(client, `/api/v1/campaigns/${created.campaign_id}/start`)
        expect((yield* post(client, url, { contacts: [{ phone_number: "+48500100009" }] })).status).toBe(409)
      }).pipe(Effect.provide(server))
  )

  it.effect(
    "reports the dialer's work: runs carry campaign_id, Do not call is skipped, a deleted run leaves the report",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(new Date(warsawNoon).getTime())
        const { client, agent, organization: org } = yield* setup
        yield* (yield* DoNotCallList.DoNotCallList).add(org.id, {
          phone_number: "+48500100003",
          reason: null
        })
        const hook = (yield* post(client, "/api/v1/webhooks", {
          url: "http://127.0.0.1:9/hook",
          events: ["campaign.started", "campaign.completed", "campaign.contact.skipped"]
        })).body as Body
        const created = (yield* post(client, "/api/v1/campaigns", {
          name: "Dial",
          agent_id: agent.id,
          max_concurrency: 1,
          contacts: ["+48500100001", "+48500100002", "+48500100003"].map((phone_number) => ({ phone_number }))
        })).body as Body
        const url = `/api/v1/campaigns/${created.campaign_id}`
        yield* post(client, `${url}/start`)
        const dialer = yield* CampaignDialer.make("http-test")
        yield* dialer.round
        const first = (yield* get(client, `${url}/report`)).body as Body
        expect(first.summary).toMatchObject({ total: 3, pending: 1, in_progress: 1, skipped: 1, attempts: 1 })
        const dialed = first.items[0]
        expect(dialed).toMatchObject({ status: "in_progress", attempts: 1, last_run_status: "queued" })
        expect(first.items[2]).toMatchObject({
          status: "skipped",
          last_error: "do_not_call",
          last_run_id: null
        })
        const runUrl = `/api/v1/agents/${agent.public_id}/conversations/${dialed.last_run_id}`
        expect((yield* get(client, runUrl)).body).toMatchObject({ campaign_id: created.campaign_id })

        // the pending contact can be removed; the one in progress cannot
        expect(
          (yield* send(client, HttpClientRequest.del(`${url}/contacts/${dialed.contact_id}`))).status
        ).toBe(409)
        const removed = yield* send(
          client,
          HttpClientRequest.del(`${url}/contacts/${first.items[1].contact_id}`)
        )
        expect(removed.status).toBe(204)

        const events = yield* CallEvents.CallEvents
        const runId = RunId.RunId.make(dialed.last_run_id)
        yield* events.report(org.id, runId, { type: "answered" })
        yield* events.report(org.id, runId, { type: "gathered", values: { confirmed: true } })
        yield* events.report(org.id, runId, { type: "ended", status: "completed", duration_seconds: 42 })
        // every contact final: the report counts it at once, the dialer's next round completes the campaign
        const settled = (yield* get(client, `${url}/report`)).body as Body
        expect(settled).toMatchObject({ status: "running", summary: { pending: 0, in_progress: 0 } })
        yield* dialer.round
        const done = (yield* get(client, `${url}/report`)).body as Body
        expect(done.status).toBe("completed")
        expect(done.summary).toMatchObject({
          total: 2,
          completed: 1,
          skipped: 1,
          attempts: 1,
          duration_seconds: 42
        })
        expect(done.items[0]).toMatchObject({
          status: "completed",
          last_run_status: "completed",
          duration_seconds: 42,
          gathered_context: { confirmed: true }
        })
        const deliveries = (yield* get(client, `/api/v1/webhooks/${hook.id}/deliveries`)).body as Body
        const sent = deliveries.items.map((d: Body) => [d.event_type, d.workflow_run_id, d.payload.data])
        expect(sent).toEqual(
          expect.arrayContaining([
            ["campaign.started", null, expect.objectContaining({ campaign_id: created.campaign_id })],
            [
              "campaign.contact.skipped",
              null,
              expect.objectContaining({ phone_number: "+48500100003", reason: "do_not_call" })
            ],
            ["campaign.completed", null, expect.objectContaining({ status: "completed" })]
          ])
        )
        expect(sent).toHaveLength(3)
        const csv = yield* get(client, `${url}/report`, "text/csv")
        expect(csv.status).toBe(200)
        expect(csv.headers["content-type"]).toContain("text/csv")
        const lines = csv.text.trim().split("\r\n")
        expect(lines[0]).toBe(
          "contact_id,phone_number,status,attempts,last_run_id,last_run_status,disposition,duration_seconds,gathered_context,last_error,next_attempt_at"
        )
        expect(lines).toHaveLength(3)
        expect(lines[1]).toContain('"{""confirmed"":true}"')
        // text/csv refused (q=0) or weighted: JSON, then CSV
        const refused = yield* get(client, `${url}/report`, "text/csv;q=0, application/json")
        expect(refused.headers["content-type"]).toContain("application/json")
        const weighted = yield* get(client, `${url}/report`, "application/json;q=0.5, text/csv; q=0.8")
        expect(weighted.headers["content-type"]).toContain("text/csv")

        expect((yield* send(client, HttpClientRequest.del(runUrl))).status).toBe(204)
        const erased = (yield* get(client, `${url}/report?status=completed`)).body as Body
        expect(erased.items[0]).toMatchObject({
          last_run_id: null,
          last_run_status: null,
          gathered_context: null
        })
        expect(erased.summary).toMatchObject({ completed: 1, duration_seconds: 42 })
      }).pipe(Effect.provide(server))
  )
})
