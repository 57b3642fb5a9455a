import { HttpClientRequest } from "@effect/platform"
import type { HttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { ContactImport, DoNotCallList } from "@voice-agent-platform/core"
import { Effect, TestClock } from "effect"
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"

// 12:00 in Warsaw, 06:00 in New York: inside calling hours in Poland, not yet in New York.
const warsawNoon = "2026-02-10T11:00:00.000Z"
const invalidNumber = "phone_number must be a valid phone number in international format, e.g. +48500000486"

type Body = Record<string, any>

const post = (client: HttpClient.HttpClient, url: string, body: unknown = {}) =>
  send(client, json("POST", url, body))
const csvBody = (url: string, text: string) =>
  HttpClientRequest.post(url).pipe(HttpClientRequest.bodyText(text, "text/csv"))
const formBody = (url: string, text: string) => {
  const form = new FormData()
  form.append("file", new Blob([text], { type: "text/csv" }), "contacts.csv")
  return HttpClientRequest.post(url).pipe(HttpClientRequest.bodyFormData(form))
}

/** An organization, its client, and a campaign of a new agent; answers the campaign's URL. */
const campaignOf = Effect.gen(function* () {
  const owner = yield* organization()
  const client = yield* rawClient(owner.apiKey)
  const agent = (yield* post(client, "/api/v1/agents/from-script", { agent: { greeting: "Hello!" } }))
    .body as Body
  const campaign = (yield* post(client, "/api/v1/campaigns", { name: "Spring", agent_id: agent.public_id }))
    .body as Body
  return { ...owner, client, url: `/api/v1/campaigns/${campaign.campaign_id}` }
})

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("a campaign's contacts preflight over HTTP, %s storage", (_, server) => {
  it.effect(
    "tells rows, invalid numbers, duplicates, Do not call hits and those outside hours now, importing nothing",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(new Date(warsawNoon).getTime())
        const { client, organization: org, url } = yield* campaignOf
        yield* post(client, `${url}/contacts`, { contacts: [{ phone_number: "+48500100001" }] })
        yield* (yield* DoNotCallList.DoNotCallList).add(org.id, {
          phone_number: "+48500100003",
          reason: null
        })
        const csv = [
          "phone_number,name",
          "+48 500 100 001,Ola", // already in the campaign
          "+48500100002,Jan",
          "bad,Zed",
          "+48 500-100-002,Jan again", // repeats row 2
          "+48500100003,Listed",
          "+1 212 736 5000,New York",
          "",
          "+48500100004,Ewa"
        ].join("\r\n")
        const expected = {
          rows: 7,
          valid: 6,
          invalid: [{ row: 3, phone_number: "bad", detail: invalidNumber }],
          duplicates: 2,
          do_not_call: 1,
          outside_calling_hours_now: 1,
          would_add: 4
        }
        const asCsv = yield* send(client, csvBody(`${url}/contacts/preflight`, csv))
        expect(asCsv.status).toBe(200)
        expect(asCsv.body).toEqual(expected)
        const asForm = yield* send(client, formBody(`${url}/contacts/preflight`, csv))
        expect(asForm.body).toEqual(expected)
        const asJson = yield* post(client, `${url}/contacts/preflight`, {
          contacts: [{ phone_number: "+48500100002" }, { phone_number: "nope", initial_context: { a: 1 } }]
        })
        expect(asJson.body).toEqual({
          rows: 2,
          valid: 1,
          invalid: [{ row: 2, phone_number: "nope", detail: invalidNumber }],
          duplicates: 0,
          do_not_call: 0,
          outside_calling_hours_now: 0,
          would_add: 1
        })

        // nothing was imported: the campaign holds its one contact, and the import does what was told
        const report = (yield* send(client, HttpClientRequest.get(`${url}/report`))).body as Body
        expect(report.summary.total).toBe(1)
        const imported = yield* send(client, csvBody(`${url}/contacts`, csv))
        expect(imported.body).toEqual({ added: 4, duplicates: 2, rejected: expected.invalid })
      }).pipe(Effect.provide(server))
  )

  it.effect(
    "is refused as the import would be: malformed file 422, 415, unknown campaign 404, started 409",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(new Date(warsawNoon).getTime())
        const { client, url } = yield* campaignOf
        const preflight = `${url}/contacts/preflight`
        const malformed = yield* send(client, csvBody(preflight, 'phone_number,name\n+48500100004,"open\n'))
        expect(malformed.status).toBe(422)
        expect((malformed.body as Body).detail[0]).toMatchObject({ loc: ["body"], type: "value_error.csv" })
        const noColumn = yield* send(client, formBody(preflight, "number\n+48500100005\n"))
        expect(noColumn.status).toBe(422)
        expect((noColumn.body as Body).detail[0].loc).toEqual(["body", "file"])
        const unknownField = yield* post(client, preflight, { contacts: [{ phone: "+48500100006" }] })
        expect(unknownField.status).toBe(422)
        const tooMany = yield* post(client, preflight, {
          contacts: Array.from({ length: ContactImport.maxContactsPerRequest + 1 }, () => ({
            phone_number: "+48500100007"
          }))
        })
        expect(tooMany.status).toBe(422)
        const text = yield* send(
          client,
          HttpClientRequest.post(preflight).pipe(HttpClientRequest.bodyText("x", "text/plain"))
        )
        expect(text.status).toBe(415)

        const elsewhere = yield* send(
          client,
          csvBody("/api/v1/campaigns/123456789/contacts/preflight", "phone_number\n")
        )
        expect(elsewhere.status).toBe(404)
        // another organization's campaign is unknown too
        const stranger = yield* rawClient((yield* organization()).apiKey)
        expect((yield* send(stranger, csvBody(preflight, "phone_number\n+48500100008\n"))).status).toBe(404)

        yield* post(client, `${url}/contacts`, { contacts: [{ phone_number: "+48500100001" }] })
        expect((yield* post(client, `${url}/start`)).status).toBe(200)
        const started = yield* post(client, preflight, { contacts: [{ phone_number: "+48500100009" }] })
        expect(started.status).toBe(409)
      }).pipe(Effect.provide(server))
  )
})
