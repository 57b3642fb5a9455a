import type { Vitest } from "@effect/vitest"
import { describe, expect } from "@effect/vitest"
import { Effect } from "effect"
import type { AgentId } from "../src/agents/AgentIds.js"
import * as E164 from "../src/phone-numbers/E164.js"
import * as EncodedPage from "../src/pagination/EncodedPage.js"
import type { RunListFilter } from "../src/runs/RunStore.js"
import * as RunSummaryJson from "../src/runs/RunSummaryJson.js"
import { RunStore } from "../src/runs/RunStore.js"
import type { Stores } from "../src/storage/Stores.js"
import * as Fixtures from "./Fixtures.js"
import { at, page } from "./ContractFixtures.js"

const number = (text: string) => E164.E164.make(text)

/**
 * The storage contract for runs lists beyond one agent's plain list: the organization's list of every
 * agent's runs and the filters both lists take; `storeContract` runs it against every adapter.
 */
export const runListContract = (it: Vitest.MethodsNonLive<Stores>) => {
  describe("runs lists across agents and their filters", () => {
    it.effect(
      "lists every agent's runs newest first with their agents, and each filter narrows both lists",
      () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const org = yield* Fixtures.organization()
          const other = yield* Fixtures.organization()
          const { agent: a } = yield* Fixtures.agent(org.id, "Reception")
          const { agent: b } = yield* Fixtures.agent(org.id, "Sales")
          const { agent: c } = yield* Fixtures.agent(other.id, "Elsewhere")
          const insert = (
            agentId: AgentId,
            seconds: number,
            overrides: Parameters<typeof Fixtures.newRun>[2]
          ) => runs.insert(Fixtures.newRun(org.id, agentId, overrides), at(seconds))
          const r1 = yield* insert(a.id, 0, {
            status: "completed",
            phone_number: number("+48500000101"),
            disposition: "confirmed"
          })
          const r2 = yield* insert(b.id, 10, { mode: "chat", status: "in_progress", phone_number: null })
          const r3 = yield* insert(a.id, 20, { status: "no_answer", phone_number: number("+48500000102") })
          const r4 = yield* insert(b.id, 30, {
            status: "completed",
            phone_number: number("+48500000101"),
            disposition: "declined"
          })
          yield* runs.insert(
            Fixtures.newRun(other.id, c.id, { phone_number: number("+48500000101") }),
            at(40)
          )

          const all = yield* runs.listAcrossAgents(org.id, {}, page(1))
          expect(all).toMatchObject({ total_count: 4, total_pages: 1, page: 1, limit: 50 })
          expect(all.items.map((r) => r.workflow_run_id)).toEqual(
            [r4, r3, r2, r1].map((r) => r.workflow_run_id)
          )
          expect(all.items[0]).toMatchObject({
            workflow_run_id: r4.workflow_run_id,
            workflow_id: b.id,
            organization_id: org.id,
            mode: "phone",
            status: "completed",
            phone_number: "+48500000101",
            disposition: "declined",
            agent_public_id: b.public_id,
            agent_name: "Sales",
            created_at: at(30),
            ended_at: null
          })
          expect(all.items[1]).toMatchObject({ agent_public_id: a.public_id, agent_name: "Reception" })
          expect(all.items[2]).toMatchObject({ mode: "chat", phone_number: null, disposition: null })

          const across = (filter: RunListFilter) =>
            Effect.map(runs.listAcrossAgents(org.id, filter, page(1)), (listed) => {
              expect(listed.total_count).toBe(listed.items.length)
              return listed.items.map((r) => r.workflow_run_id)
            })
          const ids = (...listed: ReadonlyArray<{ readonly workflow_run_id: number }>) =>
            listed.map((r) => r.workflow_run_id)
          expect(yield* across({ agent_id: a.id })).toEqual(ids(r3, r1))
          expect(yield* across({ agent_id: c.id })).toEqual([])
          expect(yield* across({ status: "completed" })).toEqual(ids(r4, r1))
          expect(yield* across({ phone_number: number("+48500000101") })).toEqual(ids(r4, r1))
          expect(yield* across({ disposition: "confirmed" })).toEqual(ids(r1))
          expect(yield* across({ mode: "chat" })).toEqual(ids(r2))
          expect(yield* across({ created_after: at(10), created_before: at(30) })).toEqual(ids(r3, r2))
          expect(yield* across({ agent_id: b.id, phone_number: number("+48500000101") })).toEqual(ids(r4))
          expect(yield* across({ agent_id: a.id, status: "completed", disposition: "declined" })).toEqual([])
          expect((yield* runs.listAcrossAgents(other.id, {}, page(1))).total_count).toBe(1)

          const ofAgent = (agentId: AgentId, filter: RunListFilter) =>
            Effect.map(runs.list(org.id, agentId, filter, page(1)), (listed) => {
              expect(listed.total_count).toBe(listed.items.length)
              return listed.items.map((r) => r.workflow_run_id)
            })
          expect(yield* ofAgent(a.id, { phone_number: number("+48500000101") })).toEqual(ids(r1))
          expect(yield* ofAgent(a.id, { disposition: "confirmed" })).toEqual(ids(r1))
          expect(yield* ofAgent(b.id, { mode: "chat" })).toEqual(ids(r2))
          expect(yield* ofAgent(b.id, { mode: "phone", status: "completed" })).toEqual(ids(r4))
        })
    )

    it.effect(
      "pages every agent's runs newest first, ties by the higher id, from either end, with filters",
      () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const org = yield* Fixtures.organization()
          const agents = [
            (yield* Fixtures.agent(org.id, "A")).agent,
            (yield* Fixtures.agent(org.id, "B")).agent,
            (yield* Fixtures.agent(org.id, "C")).agent
          ]
          // 23 runs of three agents, three to an instant (ties), every third one completed
          const inserted: Array<{ id: number; at: number; agent: AgentId; completed: boolean }> = []
          for (let i = 0; i < 23; i++) {
            const completed = i % 3 === 0
            const agent = agents[i % 2 === 0 ? 0 : 1 + (i % 3 === 0 ? 1 : 0)]!
            const run = yield* runs.insert(
              Fixtures.newRun(org.id, agent.id, completed ? { status: "completed" } : {}),
              at(Math.floor(i / 3))
            )
            inserted.push({ id: run.workflow_run_id, at: Math.floor(i / 3), agent: agent.id, completed })
          }
          const newestFirst = (rows: typeof inserted) =>
            [...rows].sort((x, y) => y.at - x.at || y.id - x.id).map((row) => row.id)
          const walk = (limit: number, filter: RunListFilter) =>
            Effect.gen(function* () {
              const ids: Array<number> = []
              for (let n = 1; ; n++) {
                const listed = yield* runs.listAcrossAgents(org.id, filter, page(n, limit))
                if (listed.items.length === 0) return { ids, total: listed.total_count, pages: n - 1 }
                ids.push(...listed.items.map((run) => run.workflow_run_id))
              }
            })
          for (const limit of [1, 4, 5, 7, 23, 50]) {
            const all = yield* walk(limit, {})
            expect(all.ids).toEqual(newestFirst(inserted))
            expect(all.total).toBe(23)
            expect(all.pages).toBe(Math.ceil(23 / limit))
            const completed = yield* walk(limit, { status: "completed" })
            expect(completed.ids).toEqual(newestFirst(inserted.filter((row) => row.completed)))
            const first = yield* walk(limit, { agent_id: agents[0]!.id })
            expect(first.ids).toEqual(newestFirst(inserted.filter((row) => row.agent === agents[0]!.id)))
            expect(first.total).toBe(12)
          }
        })
    )

    it.effect(
      "writes an agent's page as the API answers it: the same runs, order and totals as its list",
      () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const org = yield* Fixtures.organization()
          const { agent } = yield* Fixtures.agent(org.id, "Encoded")
          const { agent: sibling } = yield* Fixtures.agent(org.id, "Sibling")
          // 14 runs, two to an instant (ties), contexts with text a JSON writer must escape, some ended
          for (let i = 0; i < 14; i++) {
            yield* runs.insert(
              Fixtures.newRun(org.id, i === 5 ? sibling.id : agent.id, {
                status: i % 4 === 0 ? "completed" : "queued",
                initial_context: { customer: `Zoë "${i}" \\ \u2028`, nested: { list: [i, 2.5, null, true] } },
                gathered_context: i % 3 === 0 ? { answer: i } : {},
                ...(i % 4 === 0 ? { duration_seconds: 60 + i, ended_at: at(Math.floor(i / 2) + 0.123) } : {})
              }),
              at(Math.floor(i / 2) + 0.5)
            )
          }
          const same = (filter: RunListFilter, n: number, limit: number) =>
            Effect.gen(function* () {
              const listed = yield* runs.list(org.id, agent.id, filter, page(n, limit))
              const encoded = yield* runs.listEncoded(org.id, agent.id, filter, page(n, limit))
              expect(JSON.parse(EncodedPage.json(encoded))).toEqual({
                items: JSON.parse(RunSummaryJson.itemsJson(listed.items)),
                total_count: listed.total_count,
                total_pages: listed.total_pages,
                page: n,
                limit
              })
              return listed.items.length
            })
          for (const limit of [1, 5, 13, 50]) {
            for (let n = 1; n <= Math.ceil(13 / limit) + 1; n++) yield* same({}, n, limit)
          }
          expect(yield* same({ status: "completed" }, 1, 50)).toBe(4)
          expect(yield* same({ status: "failed" }, 1, 50)).toBe(0)
          // an agent of another organization is nobody's here: an empty page
          const stranger = yield* Fixtures.organization()
          const empty = yield* runs.listEncoded(stranger.id, agent.id, {}, page(1))
          expect(JSON.parse(EncodedPage.json(empty))).toEqual({
            items: [],
            total_count: 0,
            total_pages: 0,
            page: 1,
            limit: 50
          })
        })
    )
  })
}
