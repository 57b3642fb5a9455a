import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { send, TestServer, TestServerOverSql } from "../support/TestServer.js"
import {
  warsawNoon,
  setNow,
  type Body,
  setup,
  post,
  placed,
  replayed
} from "../support/IdempotencyFixtures.js"

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("Idempotency-Key over HTTP, %s storage", (_, server) => {
  it.effect("a retried call request with the same key places one call and gets the first answer again", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization: org, client, agent } = yield* setup()
      const path = `/agents/${agent.public_id}/calls`
      const body = {
        phone_number: "+48 500 100 200",
        initial_context: { first_name: "Ola", visit: "Monday" }
      }
      const first = yield* post(client, path, body, "retry-me-1")
      expect(first.status).toBe(200)
      expect(first.body).toEqual({
        workflow_run_id: expect.any(Number),
        workflow_id: agent.id,
        status: "queued",
        phone_number: "+48500100200",
        created_at: warsawNoon
      })
      expect(replayed(first)).toBeUndefined()

      yield* TestClock.adjust("5 seconds")
      const again = yield* post(client, path, body, "retry-me-1")
      expect(again.status).toBe(200)
      expect(again.body).toEqual(first.body)
      expect(replayed(again)).toBe("true")
      expect(again.headers["x-request-id"]).toBeDefined()
      expect(again.headers["x-request-id"]).not.toBe(first.headers["x-request-id"])

      // the same body with its fields in another order is the same request
      const reordered = yield* post(
        client,
        path,
        { initial_context: { visit: "Monday", first_name: "Ola" }, phone_number: "+48 500 100 200" },
        "retry-me-1"
      )
      expect(reordered.status).toBe(200)
      expect(reordered.body).toEqual(first.body)
      expect(replayed(reordered)).toBe("true")

      const once = yield* placed(org.id, agent.id)
      expect(once.runs).toEqual([(first.body as Body).workflow_run_id])
      expect(once.handed).toEqual([(first.body as Body).workflow_run_id])

      // without a key nothing changes: every request places a call
      expect((yield* post(client, path, body)).status).toBe(200)
      expect((yield* post(client, path, body)).status).toBe(200)
      expect((yield* placed(org.id, agent.id)).runs).toHaveLength(3)
    }).pipe(Effect.provide(server))
  )

  it.effect("works the same on the trigger and legacy addresses", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization: org, client, agent } = yield* setup()
      const trigger = (yield* post(client, "/triggers", { agent_id: agent.public_id, name: "Reminders" }))
        .body as Body
      const body = { phone_number: "+48500100200" }
      for (const [path, key] of [
        [`/triggers/${trigger.trigger_id}/calls`, "trigger-key"],
        [`/workflow/${agent.id}/calls`, "legacy-key"]
      ] as const) {
        const first = yield* post(client, path, body, key)
        expect(first.status).toBe(200)
        const again = yield* post(client, path, body, key)
        expect(again.status).toBe(200)
        expect(again.body).toEqual(first.body)
        expect(replayed(again)).toBe("true")
      }
      const calls = yield* placed(org.id, agent.id)
      expect(calls.runs).toHaveLength(2)
      expect(calls.handed).toHaveLength(2)
    }).pipe(Effect.provide(server))
  )

  it.effect("the same key with another body, path or address is 422 at the header, and places nothing", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization: org, client, agent } = yield* setup()
      const first = yield* post(
        client,
        `/agents/${agent.public_id}/calls`,
        { phone_number: "+48500100200" },
        "k1"
      )
      expect(first.status).toBe(200)
      const reused = {
        detail: [
          {
            loc: ["header", "Idempotency-Key"],
            msg: "This Idempotency-Key was already used with another request (another body or path); use a new key for a new request",
            type: "value_error.idempotency_key_reused"
          }
        ]
      }
      for (const [path, body] of [
        [`/agents/${agent.public_id}/calls`, { phone_number: "+48500100201" }],
        [`/agents/${agent.public_id}/calls`, { phone_number: "+48500100200", initial_context: null }],
        // the same agent by its number is another path, the legacy address another route
        [`/agents/${agent.id}/calls`, { phone_number: "+48500100200" }],
        [`/workflow/${agent.id}/calls`, { phone_number: "+48500100200" }]
      ] as const) {
        const other = yield* post(client, path, body, "k1")
        expect(other.status).toBe(422)
        expect(other.body).toEqual(reused)
        expect(replayed(other)).toBeUndefined()
      }
      expect((yield* placed(org.id, agent.id)).runs).toHaveLength(1)
      // the key still answers its own request
      const again = yield* post(
        client,
        `/agents/${agent.public_id}/calls`,
        { phone_number: "+48500100200" },
        "k1"
      )
      expect(again.body).toEqual(first.body)
      expect(replayed(again)).toBe("true")
    }).pipe(Effect.provide(server))
  )

  it.effect("a malformed key is 422 at the header, listed with the body's own failures", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization: org, client, agent } = yield* setup()
      const issue = {
        loc: ["header", "Idempotency-Key"],
        msg: "Idempotency-Key must be 1 to 255 printable ASCII characters, without leading or trailing spaces",
        type: "value_error"
      }
      for (const key of ["k".repeat(256), "tab\tinside"]) {
        const bad = yield* post(
          client,
          `/agents/${agent.public_id}/calls`,
          { phone_number: "+48500100200" },
          key
        )
        expect(bad.status).toBe(422)
        expect(bad.body).toEqual({ detail: [issue] })
      }
      const both = yield* post(client, `/agents/${agent.public_id}/calls`, { extra: 1 }, "k".repeat(256))
      expect(both.status).toBe(422)
      const locs = (both.body as Body).detail.map((d: Body) => d.loc.join("."))
      expect(locs).toEqual(
        expect.arrayContaining(["header.Idempotency-Key", "body.phone_number", "body.extra"])
      )
      expect((yield* placed(org.id, agent.id)).runs).toHaveLength(0)
      // 255 characters is a key
      expect(
        (yield* post(
          client,
          `/agents/${agent.public_id}/calls`,
          { phone_number: "+48500100200" },
          "k".repeat(255)
        )).status
      ).toBe(200)
    }).pipe(Effect.provide(server))
  )

  it.effect(
    "of 5 simultaneous requests with one key exactly one places a call; the others wait or replay",
    () =>
      Effect.gen(function* () {
        yield* setNow(warsawNoon)
        const { organization: org, client, agent } = yield* setup()
        const results = yield* Effect.all(
          Array.from({ length: 5 }, () =>
            post(client, `/agents/${agent.public_id}/calls`, { phone_number: "+48500100200" }, "burst")
          ),
          { concurrency: "unbounded" }
        )
        const ran = results.filter((r) => r.status === 200 && replayed(r) === undefined)
        expect(ran).toHaveLength(1)
        for (const r of results) {
          if (r === ran[0]) continue
          if (r.status === 200) {
            expect(replayed(r)).toBe("true")
            expect(r.body).toEqual(ran[0]!.body)
          } else {
            expect(r.status).toBe(409)
            expect(r.body).toEqual({
              detail:
                "idempotency_key_in_use: a request with this Idempotency-Key is still running; retry when it has answered"
            })
          }
        }
        const calls = yield* placed(org.id, agent.id)
        expect(calls.runs).toHaveLength(1)
        expect(calls.handed).toHaveLength(1)
      }).pipe(Effect.provide(server))
  )

  it.effect("documents the header on every idempotent endpoint, and the replay header on kept answers", () =>
    Effect.gen(function* () {
      const { client } = yield* setup()
      const doc = (yield* send(client, HttpClientRequest.get("/api/v1/public-openapi.json"))).body as Body
      const operations = [
        doc.paths["/api/v1/agents/{agent_id}/calls"].post,
        doc.paths["/api/v1/triggers/{trigger_id}/calls"].post,
        doc.paths["/api/v1/workflow/{workflow_id}/calls"].post,
        doc.paths["/api/v1/phone-numbers/polish/order"].post
      ]
      for (const operation of operations) {
        const header = (operation.parameters as Array<Body>).find((p) => p.in === "header")!
        expect(header).toMatchObject({ name: "Idempotency-Key", required: false })
        expect(header.schema).toMatchObject({ type: "string", minLength: 1, maxLength: 255 })
        expect(header.description).toContain("24 hours")
        expect(operation.responses["200"].headers["Idempotency-Replayed"]).toBeDefined()
        expect(operation.responses["404"].headers["Idempotency-Replayed"]).toBeDefined()
        expect(operation.responses["401"].headers?.["Idempotency-Replayed"]).toBeUndefined()
        expect(operation.responses["409"].headers?.["Idempotency-Replayed"]).toBeUndefined()
        expect(operation.responses["409"].description).toContain("Idempotency-Key is still running")
        expect(header.description).toContain('422 at `["header","Idempotency-Key"]`')
      }
      // other POSTs take no key
      expect(JSON.stringify(doc.paths["/api/v1/do-not-call"])).not.toContain("Idempotency-Key")
    }).pipe(Effect.provide(server))
  )
})
