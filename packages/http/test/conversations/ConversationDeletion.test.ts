/** Conversations over HTTP: deleting a run, live or ended. */
import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { BlobStore, Money, UsageStore } from "@voice-agent-platform/core"
import { Effect, Option } from "effect"
import { completedCall, createAgent, download, runEndpoints, storeRun } from "../support/RunFixtures.js"
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"
import { type Body, conversations } from "../support/ConversationFixtures.js"

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("conversations over HTTP, %s storage", (_, server) => {
  it.effect(
    "deleting a call: 204, then every run endpoint is 404, links fail, files gone, billing kept",
    () =>
      Effect.gen(function* () {
        const { apiKey, organization: org } = yield* organization()
        const client = yield* rawClient(apiKey)
        const agent = yield* createAgent(client)
        const { recordingKey, run, transcriptKey } = yield* completedCall(org, agent.id)
        const usage = yield* UsageStore.UsageStore
        yield* usage.record({
          organization_id: org.id,
          run_id: run.workflow_run_id,
          agent_id: run.workflow_id,
          mode: "phone",
          kind: "call",
          prompt_tokens: 0,
          completion_tokens: 0,
          duration_seconds: 65,
          cost: Money.MinorUnits.make(1234),
          currency: "PLN",
          recorded_at: new Date("2026-03-01T12:01:05.000Z")
        })
        const totals = yield* usage.totals(org.id, {})
        const base = `${conversations(agent.public_id)}/${run.workflow_run_id}`
        const links = [
          ((yield* send(client, HttpClientRequest.get(`${base}/recording`))).body as Body).download_url,
          ((yield* send(client, HttpClientRequest.get(`${base}/transcript`))).body as Body).download_url
        ]
        for (const link of links) expect((yield* download(link)).status).toBe(200)

        const deleted = yield* send(client, HttpClientRequest.del(base))
        expect(deleted.status).toBe(204)
        expect(deleted.text).toBe("")

        for (const request of runEndpoints(agent.public_id, run.workflow_run_id)) {
          const response = yield* send(client, request)
          expect(response.status).toBe(404)
          expect(response.body).toEqual({ detail: `Run ${run.workflow_run_id} not found` })
        }
        const list = yield* send(client, HttpClientRequest.get(conversations(agent.id)))
        expect((list.body as Body).total_count).toBe(0)
        for (const link of links) {
          const response = yield* download(link)
          expect(response.status).toBe(404)
          expect(JSON.parse(response.text)).toEqual({ detail: "The file is no longer available" })
        }
        const blobs = yield* BlobStore.BlobStore
        expect(Option.isNone(yield* blobs.get(recordingKey))).toBe(true)
        expect(Option.isNone(yield* blobs.get(transcriptKey))).toBe(true)
        expect(yield* usage.totals(org.id, {})).toEqual(totals)
        expect(totals).toMatchObject({ calls: 1, duration_seconds: 65, cost: 1234 })
      }).pipe(Effect.provide(server))
  )

  it.effect("deleting a live call is 409 and keeps it; an ended or record-only run can be deleted", () =>
    Effect.gen(function* () {
      const { apiKey, organization: org } = yield* organization()
      const client = yield* rawClient(apiKey)
      const agent = yield* createAgent(client)
      for (const status of ["queued", "ringing", "in_progress"] as const) {
        const live = yield* storeRun(org, agent.id, { status })
        const refused = yield* send(
          client,
          HttpClientRequest.del(`${conversations(agent.id)}/${live.workflow_run_id}`)
        )
        expect(refused.status).toBe(409)
        expect(refused.body).toEqual({
          detail: `Run ${live.workflow_run_id} is ${status}; it can be deleted once the call has ended`
        })
        const still = yield* send(
          client,
          HttpClientRequest.get(`${conversations(agent.id)}/${live.workflow_run_id}`)
        )
        expect((still.body as Body).status).toBe(status)
      }
      for (const status of ["busy", "no_answer", "failed", "canceled"] as const) {
        const ended = yield* storeRun(org, agent.id, { status })
        const response = yield* send(
          client,
          HttpClientRequest.del(`${conversations(agent.id)}/${ended.workflow_run_id}`)
        )
        expect(response.status).toBe(204)
      }
      const chat = (yield* send(client, json("POST", conversations(agent.id), { mode: "chat" }))).body as Body
      expect(
        (yield* send(client, HttpClientRequest.del(`${conversations(agent.id)}/${chat.workflow_run_id}`)))
          .status
      ).toBe(204)
    }).pipe(Effect.provide(server))
  )
})
