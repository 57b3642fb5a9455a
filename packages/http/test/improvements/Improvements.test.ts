import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"

type Improvement = { id: number; status: string; text: string; applied_definition_id: number | null }

const newAgent = (apiKey: string) =>
  Effect.gen(function* () {
    const client = yield* rawClient(apiKey)
    const agent = (yield* send(
      client,
      json("POST", "/api/v1/agents/from-script", { agent: { greeting: "Hi" } })
    )).body as {
      id: number
      public_id: string
      current_definition_id: number
      workflow_definition: { system_prompt: string }
    }
    return { client, agent }
  })

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("improvements endpoints, %s storage", (_, server) => {
  it.effect("suggest, list, accept: the text is appended once as a new version; deciding again is 409", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const { client, agent } = yield* newAgent(apiKey)
      const base = `/api/v1/agents/${agent.public_id}/improvements`
      const created = yield* send(
        client,
        json("POST", base, { text: "Always confirm the date twice.", rationale: "misheard dates" })
      )
      expect(created.status).toBe(200)
      const suggestion = created.body as Improvement
      expect(suggestion).toMatchObject({
        status: "pending",
        text: "Always confirm the date twice.",
        applied_definition_id: null
      })

      const pending = yield* send(client, HttpClientRequest.get(`${base}?status=pending`))
      expect((pending.body as { items: Array<Improvement> }).items.map((i) => i.id)).toEqual([suggestion.id])

      const accepted = yield* send(client, HttpClientRequest.post(`${base}/${suggestion.id}/accept`))
      expect(accepted.status).toBe(200)
      const decision = accepted.body as { improvement: Improvement; current_definition_id: number }
      expect(decision.improvement.status).toBe("accepted")
      expect(decision.current_definition_id).not.toBe(agent.current_definition_id)
      expect(decision.improvement.applied_definition_id).toBe(decision.current_definition_id)
      const read = (yield* send(client, HttpClientRequest.get(`/api/v1/agents/${agent.public_id}`)))
        .body as typeof agent
      expect(read.workflow_definition.system_prompt).toBe(
        `${agent.workflow_definition.system_prompt}\n\nAlways confirm the date twice.`
      )

      for (const action of ["accept", "dismiss"]) {
        const again = yield* send(client, HttpClientRequest.post(`${base}/${suggestion.id}/${action}`))
        expect(again.status).toBe(409)
        expect(again.body).toEqual({
          detail: `already_decided: improvement ${suggestion.id} is already accepted`
        })
      }
    }).pipe(Effect.provide(server))
  )

  it.effect("two simultaneous accepts append once", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const { client, agent } = yield* newAgent(apiKey)
      const base = `/api/v1/agents/${agent.public_id}/improvements`
      const suggestion = (yield* send(client, json("POST", base, { text: "Once." }))).body as Improvement
      const answers = yield* Effect.all(
        [1, 2].map(() => send(client, HttpClientRequest.post(`${base}/${suggestion.id}/accept`))),
        { concurrency: "unbounded" }
      )
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409])
      const read = (yield* send(client, HttpClientRequest.get(`/api/v1/agents/${agent.public_id}`)))
        .body as typeof agent
      expect(read.workflow_definition.system_prompt.split("Once.").length).toBe(2)
    }).pipe(Effect.provide(server))
  )

  it.effect(
    "dismiss changes nothing; 404 for another agent's, another organization's or an unknown suggestion; 422s",
    () =>
      Effect.gen(function* () {
        const { apiKey } = yield* organization()
        const { client, agent } = yield* newAgent(apiKey)
        const other = (yield* newAgent(apiKey)).agent
        const base = `/api/v1/agents/${agent.public_id}/improvements`
        const suggestion = (yield* send(client, json("POST", base, { text: "Maybe." }))).body as Improvement
        expect(
          (yield* send(
            client,
            HttpClientRequest.post(`/api/v1/agents/${other.public_id}/improvements/${suggestion.id}/accept`)
          )).status
        ).toBe(404)
        const stranger = yield* rawClient((yield* organization()).apiKey)
        expect(
          (yield* send(stranger, HttpClientRequest.post(`${base}/${suggestion.id}/accept`))).status
        ).toBe(404)
        expect((yield* send(client, HttpClientRequest.post(`${base}/999999/accept`))).status).toBe(404)
        const dismissed = yield* send(client, HttpClientRequest.post(`${base}/${suggestion.id}/dismiss`))
        expect(dismissed.body).toMatchObject({
          improvement: { status: "dismissed" },
          current_definition_id: agent.current_definition_id
        })

        const badPath = yield* send(client, HttpClientRequest.post(`${base}/abc/accept`))
        expect(badPath.status).toBe(422)
        expect(badPath.body).toMatchObject({ detail: [{ loc: ["path", "improvement_id"] }] })
        const emptyText = yield* send(client, json("POST", base, { text: "   " }))
        expect(emptyText.status).toBe(422)
        expect(emptyText.body).toMatchObject({ detail: [{ loc: ["body", "text"] }] })
        const foreignRun = yield* send(client, json("POST", base, { text: "x", source_run_id: 424242 }))
        expect(foreignRun.status).toBe(404)
        const badStatus = yield* send(client, HttpClientRequest.get(`${base}?status=maybe`))
        expect(badStatus.status).toBe(422)
      }).pipe(Effect.provide(server))
  )
})
