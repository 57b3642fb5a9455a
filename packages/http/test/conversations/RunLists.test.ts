import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { AgentIds, type Organization, RunStore } from "@voice-agent-platform/core"
import { Fixtures } from "@voice-agent-platform/core/testing"
import { Effect } from "effect"
import { type Body, conversations, locsOf } from "../support/ConversationFixtures.js"
import { createAgent } from "../support/RunFixtures.js"
import { organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"

const runs = "/api/v1/runs"
const at = (minutes: number) => new Date(Date.UTC(2026, 2, 1, 12, minutes))

/** A run of the agent stored in the engine as a runtime would leave it, created `minutes` after noon. */
const stored = (
  organization: Organization.Organization,
  agentId: number,
  minutes: number,
  overrides: Parameters<typeof Fixtures.newRun>[2]
) =>
  Effect.flatMap(RunStore.RunStore, (store) =>
    store.insert(Fixtures.newRun(organization.id, AgentIds.AgentId.make(agentId), overrides), at(minutes))
  )

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("runs across agents over HTTP, %s storage", (_, server) => {
  it.effect(
    "lists every agent's runs newest first with their agent, number and disposition, and filters them",
    () =>
      Effect.gen(function* () {
        const { apiKey, organization: org } = yield* organization()
        const client = yield* rawClient(apiKey)
        const reception = yield* createAgent(client, "Reception")
        const sales = yield* createAgent(client, "Sales")
        const r1 = yield* stored(org, reception.id, 0, {
          status: "completed",
          phone_number: "+48500000101",
          disposition: "confirmed",
          duration_seconds: 61,
          ended_at: at(1)
        })
        const r2 = yield* stored(org, sales.id, 10, {
          mode: "chat",
          status: "in_progress",
          phone_number: null
        })
        const r3 = yield* stored(org, reception.id, 20, { status: "no_answer", phone_number: "+48500000102" })
        const r4 = yield* stored(org, sales.id, 30, {
          status: "completed",
          phone_number: "+48500000101",
          disposition: "declined"
        })
        // another organization's run to the same number is never listed
        const stranger = yield* organization()
        const theirAgent = yield* createAgent(yield* rawClient(stranger.apiKey), "Theirs")
        yield* stored(stranger.organization, theirAgent.id, 40, { phone_number: "+48500000101" })

        const all = yield* send(client, HttpClientRequest.get(runs))
        expect(all.status).toBe(200)
        const page = all.body as Body
        expect(page).toMatchObject({ total_count: 4, total_pages: 1, page: 1, limit: 50 })
        expect(page.items.map((r: Body) => r.workflow_run_id)).toEqual(
          [r4, r3, r2, r1].map((r) => r.workflow_run_id)
        )
        expect(page.items[3]).toEqual({
          workflow_run_id: r1.workflow_run_id,
          workflow_id: reception.id,
          mode: "phone",
          status: "completed",
          initial_context: { phone_number: "+48500000100" },
          gathered_context: {},
          duration_seconds: 61,
          created_at: "2026-03-01T12:00:00.000Z",
          ended_at: "2026-03-01T12:01:00.000Z",
          phone_number: "+48500000101",
          disposition: "confirmed",
          agent_id: reception.public_id,
          agent_name: "Reception"
        })
        expect(page.items[2]).toMatchObject({ mode: "chat", phone_number: null, agent_name: "Sales" })

        const idsOf = (query: string) =>
          Effect.map(send(client, HttpClientRequest.get(`${runs}?${query}`)), (answer) => {
            expect(answer.status, query).toBe(200)
            const body = answer.body as Body
            expect(body.total_count, query).toBe(body.items.length)
            return body.items.map((r: Body) => r.workflow_run_id)
          })
        const ids = (...listed: ReadonlyArray<{ readonly workflow_run_id: number }>) =>
          listed.map((r) => r.workflow_run_id)
        expect(yield* idsOf(`agent_id=${reception.public_id}`)).toEqual(ids(r3, r1))
        expect(yield* idsOf(`agent_id=${sales.id}`)).toEqual(ids(r4, r2))
        // an agent the organization does not have matches nothing
        expect(yield* idsOf(`agent_id=${theirAgent.public_id}`)).toEqual([])
        expect(yield* idsOf("agent_id=agent_AAAAAAAAAAAAAAAAAAAA")).toEqual([])
        expect(yield* idsOf("status=completed")).toEqual(ids(r4, r1))
        // any international spelling of the number
        expect(yield* idsOf(`phone_number=${encodeURIComponent("+48 500-000-101")}`)).toEqual(ids(r4, r1))
        expect(yield* idsOf(`phone_number=${encodeURIComponent("(+48) 500 000 102")}`)).toEqual(ids(r3))
        expect(yield* idsOf("disposition=confirmed")).toEqual(ids(r1))
        expect(yield* idsOf("mode=chat")).toEqual(ids(r2))
        expect(
          yield* idsOf("created_after=2026-03-01T12:10:00Z&created_before=2026-03-01T12:30:00Z")
        ).toEqual(ids(r3, r2))
        expect(
          yield* idsOf(`agent_id=${sales.public_id}&phone_number=%2B48500000101&status=completed`)
        ).toEqual(ids(r4))
        const second = (yield* send(client, HttpClientRequest.get(`${runs}?limit=1&page=2`))).body as Body
        expect(second).toMatchObject({ total_count: 4, total_pages: 4, page: 2, limit: 1 })
        expect(second.items.map((r: Body) => r.workflow_run_id)).toEqual(ids(r3))

        const invalid = yield* send(
          client,
          HttpClientRequest.get(`${runs}?agent_id=bob&phone_number=12345&mode=fax&disposition=&status=done`)
        )
        expect(invalid.status).toBe(422)
        expect(locsOf(invalid.body)).toEqual(
          expect.arrayContaining([
            "query.agent_id",
            "query.phone_number",
            "query.mode",
            "query.disposition",
            "query.status"
          ])
        )
        const number = (invalid.body as Body).detail.find((d: Body) => d.loc[1] === "phone_number")
        expect(number.msg).toBe(
          "phone_number must be a valid phone number in international format, e.g. +48500000486"
        )
      }).pipe(Effect.provide(server))
  )

  it.effect("filters an agent's own list by number, disposition and mode, its items as before", () =>
    Effect.gen(function* () {
      const { apiKey, organization: org } = yield* organization()
      const client = yield* rawClient(apiKey)
      const agent = yield* createAgent(client)
      const call = yield* stored(org, agent.id, 0, {
        status: "completed",
        phone_number: "+48500000101",
        disposition: "confirmed"
      })
      const other = yield* stored(org, agent.id, 5, { status: "completed", phone_number: "+48500000102" })
      const chat = yield* stored(org, agent.id, 10, { mode: "chat", phone_number: null })
      const listed = (query: string) =>
        Effect.map(
          send(client, HttpClientRequest.get(`${conversations(agent.public_id)}?${query}`)),
          (answer) => {
            expect(answer.status, query).toBe(200)
            return answer.body as Body
          }
        )
      const page = yield* listed(`phone_number=${encodeURIComponent("+48 500 000 101")}`)
      expect(page.total_count).toBe(1)
      // the agent's list keeps its fields: no number, disposition or agent added
      expect(Object.keys(page.items[0]).sort()).toEqual(
        [
          "workflow_run_id",
          "workflow_id",
          "mode",
          "status",
          "initial_context",
          "gathered_context",
          "duration_seconds",
          "created_at",
          "ended_at"
        ].sort()
      )
      expect(page.items[0].workflow_run_id).toBe(call.workflow_run_id)
      expect((yield* listed("disposition=confirmed")).items.map((r: Body) => r.workflow_run_id)).toEqual([
        call.workflow_run_id
      ])
      expect((yield* listed("mode=chat")).items.map((r: Body) => r.workflow_run_id)).toEqual([
        chat.workflow_run_id
      ])
      expect(
        (yield* listed("mode=phone&status=completed")).items.map((r: Body) => r.workflow_run_id)
      ).toEqual([other.workflow_run_id, call.workflow_run_id])
      const invalid = yield* send(
        client,
        HttpClientRequest.get(`${conversations(agent.public_id)}?phone_number=0&mode=sms`)
      )
      expect(invalid.status).toBe(422)
      expect(locsOf(invalid.body).sort()).toEqual(["query.mode", "query.phone_number"])
    }).pipe(Effect.provide(server))
  )
})
