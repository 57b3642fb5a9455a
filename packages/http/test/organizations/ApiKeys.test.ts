import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { ApiKey, Quotas } from "@voice-agent-platform/core"
import { Effect, TestClock } from "effect"
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"

type Body = Record<string, any>

const keys = "/api/v1/api-keys"
const noon = "2026-02-10T11:00:00.000Z"
const setNow = (iso: string) => TestClock.setTime(new Date(iso).getTime())

/** Whether the key is let in: the status of a request made with it. */
const statusWith = (apiKey: string) =>
  Effect.flatMap(rawClient(apiKey), (client) =>
    Effect.map(send(client, HttpClientRequest.get("/api/v1/agents?limit=1")), (answer) => answer.status)
  )

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("an organization's API keys over HTTP, %s storage", (_, server) => {
  it.effect("creates a named key shown once, lists keys newest first, revokes one: refused at once", () =>
    Effect.gen(function* () {
      yield* setNow(noon)
      const owner = yield* organization()
      const client = yield* rawClient(owner.apiKey)
      yield* setNow("2026-02-10T11:05:00.000Z")
      const created = yield* send(client, json("POST", keys, { name: "  CRM integration  " }))
      expect(created.status).toBe(200)
      const key = created.body as Body
      expect(Object.keys(key).sort()).toEqual(
        ["api_key", "api_key_id", "created_at", "last_used_at", "name", "prefix", "revoked_at"].sort()
      )
      expect(key).toMatchObject({
        name: "CRM integration",
        prefix: ApiKey.displayPrefix(key.api_key),
        created_at: "2026-02-10T11:05:00.000Z",
        last_used_at: null,
        revoked_at: null
      })
      expect(ApiKey.isWellFormed(key.api_key)).toBe(true)
      expect(yield* statusWith(key.api_key)).toBe(200)

      const listed = yield* send(client, HttpClientRequest.get(keys))
      expect(listed.status).toBe(200)
      const page = listed.body as Body
      expect(page).toMatchObject({ total_count: 2, total_pages: 1, page: 1, limit: 50 })
      expect(page.items.map((k: Body) => k.api_key_id)).toEqual([key.api_key_id, expect.any(Number)])
      const first = page.items[1]
      // the organization's first key is named after its prefix; no list shows a key or its hash
      expect(first).toMatchObject({
        name: `Key ${ApiKey.displayPrefix(owner.apiKey)}`,
        prefix: ApiKey.displayPrefix(owner.apiKey),
        created_at: noon,
        revoked_at: null
      })
      expect(listed.text).not.toContain(owner.apiKey)
      expect(listed.text).not.toContain(key.api_key)
      expect(Object.keys(first).sort()).toEqual(
        ["api_key_id", "created_at", "last_used_at", "name", "prefix", "revoked_at"].sort()
      )
      const second = yield* send(client, HttpClientRequest.get(`${keys}?limit=1&page=2`))
      expect((second.body as Body).items.map((k: Body) => k.api_key_id)).toEqual([first.api_key_id])

      yield* setNow("2026-02-10T11:10:00.000Z")
      const revoked = yield* send(client, HttpClientRequest.del(`${keys}/${key.api_key_id}`))
      expect(revoked.status).toBe(204)
      expect(yield* statusWith(key.api_key)).toBe(401)
      // revoking again changes nothing
      yield* setNow("2026-02-10T11:15:00.000Z")
      expect((yield* send(client, HttpClientRequest.del(`${keys}/${key.api_key_id}`))).status).toBe(204)
      const after = (yield* send(client, HttpClientRequest.get(keys))).body as Body
      expect(after.items[0]).toMatchObject({
        api_key_id: key.api_key_id,
        revoked_at: "2026-02-10T11:10:00.000Z"
      })
    }).pipe(Effect.provide(server))
  )

  it.effect("keeps the last active key (409), and answers another organization's key as unknown (404)", () =>
    Effect.gen(function* () {
      const owner = yield* organization()
      const stranger = yield* organization()
      const client = yield* rawClient(owner.apiKey)
      const own = ((yield* send(client, HttpClientRequest.get(keys))).body as Body).items[0].api_key_id
      const last = yield* send(client, HttpClientRequest.del(`${keys}/${own}`))
      expect(last.status).toBe(409)
      expect(last.body).toEqual({
        detail: `last_active_key: API key ${own} is the organization's only active key; create another key before revoking it`
      })
      expect(yield* statusWith(owner.apiKey)).toBe(200)

      const theirs = (
        (yield* send(yield* rawClient(stranger.apiKey), HttpClientRequest.get(keys))).body as Body
      ).items[0].api_key_id
      const foreign = yield* send(client, HttpClientRequest.del(`${keys}/${theirs}`))
      expect(foreign.status).toBe(404)
      expect(foreign.body).toEqual({ detail: `API key ${theirs} not found` })
      expect(yield* statusWith(stranger.apiKey)).toBe(200)
      expect((yield* send(client, HttpClientRequest.del(`${keys}/123456789`))).status).toBe(404)
      const malformed = yield* send(client, HttpClientRequest.del(`${keys}/abc`))
      expect(malformed.status).toBe(422)
      expect((malformed.body as Body).detail[0].loc).toEqual(["path", "api_key_id"])
      // another organization's keys are not in the list
      const listed = (yield* send(client, HttpClientRequest.get(keys))).body as Body
      expect(listed.items.map((k: Body) => k.api_key_id)).toEqual([own])
    }).pipe(Effect.provide(server))
  )

  it.effect("of two revocations of the last two active keys at once, one wins and one key stays", () =>
    Effect.gen(function* () {
      for (let round = 0; round < 3; round++) {
        const owner = yield* organization()
        const first = yield* rawClient(owner.apiKey)
        const made = (yield* send(first, json("POST", keys, { name: `Round ${round}` }))).body as Body
        const second = yield* rawClient(made.api_key)
        const firstId = ((yield* send(first, HttpClientRequest.get(keys))).body as Body).items.find(
          (k: Body) => k.api_key_id !== made.api_key_id
        ).api_key_id
        // each key revokes the other: whichever is revoked first, the other must stay
        const answers = yield* Effect.all(
          [
            send(second, HttpClientRequest.del(`${keys}/${firstId}`)),
            send(first, HttpClientRequest.del(`${keys}/${made.api_key_id}`))
          ],
          { concurrency: "unbounded" }
        )
        const statuses = answers.map((a) => a.status)
        expect(statuses.filter((s) => s === 204)).toHaveLength(1)
        // the loser is refused as the last key (409), or, when the winner revoked its own key before it
        // was read, as a revoked key (401)
        expect(statuses.find((s) => s !== 204)).toBeOneOf([409, 401])
        const open = [yield* statusWith(owner.apiKey), yield* statusWith(made.api_key)]
        expect(open.sort()).toEqual([200, 401])
      }
    }).pipe(Effect.provide(server))
  )

  it.effect(
    "refuses a name that is missing, blank, longer than 100 characters, or unknown fields (422)",
    () =>
      Effect.gen(function* () {
        const client = yield* rawClient((yield* organization()).apiKey)
        const locs = (body: unknown) =>
          Effect.map(send(client, json("POST", keys, body)), (answer) => {
            expect(answer.status).toBe(422)
            return (answer.body as Body).detail.map((d: Body) => [d.loc.join("."), d.type])
          })
        expect(yield* locs({})).toEqual([["body.name", "missing"]])
        expect((yield* locs({ name: "   " }))[0][0]).toBe("body.name")
        expect((yield* locs({ name: "x".repeat(101) }))[0][0]).toBe("body.name")
        expect(yield* locs({ name: "ok", scopes: ["all"] })).toEqual([["body.scopes", "extra_forbidden"]])
        expect((yield* send(client, json("POST", keys, { name: "x".repeat(100) }))).status).toBe(200)
        const bad = yield* send(client, HttpClientRequest.get(`${keys}?page=0`))
        expect(bad.status).toBe(422)
      }).pipe(Effect.provide(server))
  )

  it.effect("a key over the quota of active keys is 409 {detail}; revoking one makes room", () =>
    Effect.gen(function* () {
      const owner = yield* organization()
      const client = yield* rawClient(owner.apiKey)
      const second = (yield* send(client, json("POST", keys, { name: "Second" }))).body as Body
      const refused = yield* send(client, json("POST", keys, { name: "Third" }))
      expect(refused.status).toBe(409)
      expect(refused.body).toEqual({
        detail:
          "quota_exceeded: the organization has 2 active API keys, the most it may have; revoke one before creating another"
      })
      expect((yield* send(client, HttpClientRequest.del(`${keys}/${second.api_key_id}`))).status).toBe(204)
      expect((yield* send(client, json("POST", keys, { name: "Third" }))).status).toBe(200)
    }).pipe(Effect.provide(server), Effect.provide(Quotas.layer({ api_keys: 2 })))
  )

  it.live("records when a key was last used, to within a minute, without the request waiting", () =>
    Effect.gen(function* () {
      const owner = yield* organization()
      const client = yield* rawClient(owner.apiKey)
      const made = (yield* send(client, json("POST", keys, { name: "Used" }))).body as Body
      expect(made.last_used_at).toBeNull()
      const before = Date.now()
      expect(yield* statusWith(made.api_key)).toBe(200)
      const after = Date.now()
      // the write happens in the background: look until it shows (bounded: 100 looks 50 ms apart)
      let lastUsed: string | null = null
      for (let look = 0; look < 100 && lastUsed === null; look++) {
        const listed = (yield* send(client, HttpClientRequest.get(keys))).body as Body
        lastUsed = listed.items.find((k: Body) => k.api_key_id === made.api_key_id).last_used_at
        if (lastUsed === null) yield* Effect.sleep("50 millis")
      }
      expect(lastUsed).not.toBeNull()
      expect(Date.parse(lastUsed!)).toBeGreaterThanOrEqual(before - 1)
      expect(Date.parse(lastUsed!)).toBeLessThanOrEqual(after + 1)
    }).pipe(Effect.provide(server))
  )
})
