import { HttpClientRequest, type HttpClient } from "@effect/platform"
import { afterEach, describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Metric, Ref } from "effect"
import { pageKey, waitingRequests } from "../../src/conversations/RunPageReads.js"
import { heldListsServer, storages } from "../support/HeldRunLists.js"
import { createAgent } from "../support/RunFixtures.js"
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"
import { type Body, conversations } from "../support/ConversationFixtures.js"
import type { E164, Organization } from "@voice-agent-platform/core"

const list = (client: HttpClient.HttpClient, path: string) => send(client, HttpClientRequest.get(path))

/** How many runs-list requests wait for a shared read of their page (this process's). */
const waiting = Effect.map(Metric.value(waitingRequests), (state) => state.value)

/**
 * Resumes once `count` more runs-list requests than `before` wait for a shared read (they joined their
 * page's batch); no time bound of its own: the test's timeout bounds it.
 */
const waitingReaches = (before: number, count: number): Effect.Effect<void> =>
  Effect.flatMap(waiting, (now) =>
    now === before + count
      ? Effect.void
      : Effect.zipRight(Effect.sleep("1 millis"), waitingReaches(before, count))
  )

/** Resumes once `held` counts `count` lists (reads that took their rows and are held there). */
const listsReach = (held: { readonly lists: () => number }, count: number): Effect.Effect<void> =>
  Effect.suspend(() =>
    held.lists() === count ? Effect.void : Effect.zipRight(Effect.sleep("1 millis"), listsReach(held, count))
  )

const concurrently = <A, E, R>(count: number, effect: Effect.Effect<A, E, R>) =>
  Effect.all(
    Array.from({ length: count }, () => effect),
    { concurrency: "unbounded" }
  )

/** Identical list requests, `workers` at a time, until `stop` is set; answers every status seen. */
const traffic = (client: HttpClient.HttpClient, path: string, stop: Ref.Ref<boolean>, workers = 6) =>
  Effect.fork(
    Effect.map(
      concurrently(
        workers,
        Effect.gen(function* () {
          const statuses: Array<number> = []
          while (!(yield* Ref.get(stop))) statuses.push((yield* list(client, path)).status)
          return statuses
        })
      ),
      (all) => all.flat()
    )
  )

describe("the runs list's page key", () => {
  const organizationId = 7 as Organization.OrganizationId
  it("names the organization, the agent and every parameter, in any order", () => {
    const query = { page: 1, limit: 50 }
    expect(pageKey(organizationId, "agent_a", query)).toBe(
      pageKey(organizationId, "agent_a", { limit: 50, page: 1 })
    )
    const others = [
      pageKey(8 as Organization.OrganizationId, "agent_a", query),
      pageKey(organizationId, "agent_b", query),
      pageKey(organizationId, "agent_a", { page: 2, limit: 50 }),
      pageKey(organizationId, "agent_a", { page: 1, limit: 49 }),
      pageKey(organizationId, "agent_a", { ...query, status: "completed" }),
      pageKey(organizationId, "agent_a", { ...query, created_after: new Date(0) }),
      pageKey(organizationId, "agent_a", { ...query, created_before: new Date(0) }),
      pageKey(organizationId, "agent_a", { ...query, phone_number: "+48500100200" as E164.E164 }),
      pageKey(organizationId, "agent_a", { ...query, disposition: "confirmed" }),
      pageKey(organizationId, "agent_a", { ...query, mode: "chat" })
    ]
    expect(new Set([pageKey(organizationId, "agent_a", query), ...others]).size).toBe(others.length + 1)
  })
})

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("identical list requests in flight share one read, %s storage", (_, server) => {
  it.effect("a run created before a list request is in its answer, while identical lists are in flight", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const agent = yield* createAgent(client)
      const path = `${conversations(agent.public_id)}?page=1&limit=50`
      const stop = yield* Ref.make(false)
      const background = yield* traffic(client, path, stop)
      for (let count = 1; count <= 8; count++) {
        const created = yield* send(client, json("POST", conversations(agent.public_id), { mode: "chat" }))
        expect(created.status).toBe(200)
        const id = (created.body as Body).workflow_run_id
        for (const page of yield* concurrently(4, list(client, path))) {
          expect(page.status).toBe(200)
          expect((page.body as Body).total_count).toBeGreaterThanOrEqual(count)
          expect((page.body as Body).items.map((run: Body) => run.workflow_run_id)).toContain(id)
        }
      }
      yield* Ref.set(stop, true)
      const statuses = yield* Fiber.join(background)
      expect(statuses.length).toBeGreaterThan(0)
      expect(new Set(statuses)).toEqual(new Set([200]))
    }).pipe(Effect.provide(server))
  )

  it.effect("concurrent identical requests get equal answers, and equal 404s for an unknown agent", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const agent = yield* createAgent(client)
      for (let i = 0; i < 3; i++)
        yield* send(client, json("POST", conversations(agent.id), { mode: "chat", initial_context: { i } }))
      const path = `${conversations(agent.public_id)}?limit=2`
      const alone = yield* list(client, path)
      const answers = yield* concurrently(16, list(client, path))
      for (const answer of answers) {
        expect(answer.status).toBe(200)
        expect(answer.headers["content-type"]).toBe(alone.headers["content-type"])
        expect(answer.text).toBe(alone.text)
      }
      const unknown = yield* concurrently(16, list(client, conversations("agent_no_such_agent")))
      for (const answer of unknown) {
        expect(answer.status).toBe(404)
        expect(answer.body).toEqual({ detail: "Agent agent_no_such_agent not found" })
      }
    }).pipe(Effect.provide(server))
  )

  it.effect("requests for different pages or filters, concurrent, each get their own page", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const agent = yield* createAgent(client)
      for (let i = 0; i < 5; i++) yield* send(client, json("POST", conversations(agent.id), { mode: "chat" }))
      const paths = [
        `${conversations(agent.id)}?page=1&limit=2`,
        `${conversations(agent.id)}?page=2&limit=2`,
        `${conversations(agent.id)}?page=1&limit=3`,
        `${conversations(agent.id)}?status=completed`,
        `${conversations(agent.id)}?status=initialized&limit=4`,
        `${conversations(agent.public_id)}?created_before=1970-01-01T00:00:00Z&limit=5`
      ]
      const alone: Array<string> = []
      for (const path of paths) alone.push((yield* list(client, path)).text)
      expect(new Set(alone).size).toBe(paths.length)
      const mixed = yield* Effect.all(
        Array.from({ length: 4 }, () => paths.map((path) => list(client, path))).flat(),
        { concurrency: "unbounded" }
      )
      mixed.forEach((answer, i) => expect(answer.text).toBe(alone[i % paths.length]))
    }).pipe(Effect.provide(server))
  )
})

describe.each(storages)(
  "list requests arriving while the page's read is held under way, %s storage",
  (_, stores) => {
    const held = heldListsServer(stores)
    // a failed test leaves no list held or broken for the next
    afterEach(() => held.reset())
    it.live(
      "a request arriving while the page's read is under way gets the next read, with the run written before it",
      () =>
        Effect.gen(function* () {
          const { apiKey } = yield* organization()
          const client = yield* rawClient(apiKey)
          const agent = yield* createAgent(client)
          const path = conversations(agent.public_id)
          held.hold()
          const before = held.lists()
          const waitingBefore = yield* waiting
          const early = yield* Effect.fork(list(client, path))
          // The early request's read has taken its rows (none) and is held there, under way.
          yield* listsReach(held, before + 1)
          const created = yield* send(client, json("POST", conversations(agent.public_id), { mode: "chat" }))
          expect(created.status).toBe(200)
          const late = yield* Effect.fork(concurrently(3, list(client, path)))
          // The late requests wait for the page's next read while the early one is still held.
          yield* waitingReaches(waitingBefore, 4)
          expect(held.lists()).toBe(before + 1)
          yield* held.release
          const earlyPage = yield* Fiber.join(early)
          expect(earlyPage.status).toBe(200)
          expect((earlyPage.body as Body).total_count).toBe(0)
          for (const page of yield* Fiber.join(late)) {
            expect(page.status).toBe(200)
            expect((page.body as Body).items.map((run: Body) => run.workflow_run_id)).toEqual([
              (created.body as Body).workflow_run_id
            ])
          }
        }).pipe(Effect.provide(held.server))
    )

    it.live("two organizations asking the same path in the same batch never share an answer", () =>
      Effect.gen(function* () {
        const owner = yield* organization()
        const stranger = yield* organization()
        const ownerClient = yield* rawClient(owner.apiKey)
        const strangerClient = yield* rawClient(stranger.apiKey)
        const agent = yield* createAgent(ownerClient)
        yield* send(ownerClient, json("POST", conversations(agent.id), { mode: "chat" }))
        for (const path of [conversations(agent.public_id), conversations(agent.id)]) {
          held.hold()
          const before = held.lists()
          const waitingBefore = yield* waiting
          const first = yield* Effect.fork(list(ownerClient, path))
          yield* listsReach(held, before + 1)
          // The owner's second request waits for its page's next read (the first is held)...
          const own = yield* Effect.fork(list(ownerClient, path))
          yield* waitingReaches(waitingBefore, 2)
          // ... and the stranger's two arrive while it is held: were the organization not in the key, they
          // would join the owner's next batch and wait with it (both would be waiting: then release).
          const strangers = yield* Effect.fork(
            Effect.all([list(strangerClient, path), list(strangerClient, path)], { concurrency: "unbounded" })
          )
          yield* Effect.race(Fiber.await(strangers), waitingReaches(waitingBefore, 4))
          yield* held.release
          expect((yield* Fiber.join(first)).status).toBe(200)
          const [strange, strangeAgain] = yield* Fiber.join(strangers)
          const ownPage = yield* Fiber.join(own)
          expect([strange!.status, ownPage.status, strangeAgain!.status]).toEqual([404, 200, 404])
          expect((ownPage.body as Body).total_count).toBe(1)
        }
      }).pipe(Effect.provide(held.server))
    )

    it.live(
      "a read that dies answers each request of its batch a 500 with its own request id; the next reads again",
      () =>
        Effect.gen(function* () {
          const { apiKey } = yield* organization()
          const client = yield* rawClient(apiKey)
          const agent = yield* createAgent(client)
          const path = conversations(agent.public_id)
          held.hold()
          const before = held.lists()
          const waitingBefore = yield* waiting
          const first = yield* Effect.fork(list(client, path))
          yield* listsReach(held, before + 1)
          held.breakLists(true)
          const batch = yield* Effect.fork(concurrently(3, list(client, path)))
          // the three wait for the next read, which will die: one batch
          yield* waitingReaches(waitingBefore, 4)
          yield* held.release
          expect((yield* Fiber.join(first)).status).toBe(200)
          const failed = yield* Fiber.join(batch)
          held.breakLists(false)
          for (const answer of failed) {
            expect(answer.status).toBe(500)
            expect(answer.body).toEqual({
              detail: "Internal server error",
              request_id: answer.headers["x-request-id"]
            })
          }
          expect(new Set(failed.map((answer) => answer.headers["x-request-id"])).size).toBe(3)
          const again = yield* list(client, path)
          expect(again.status).toBe(200)
        }).pipe(Effect.provide(held.server))
    )
  }
)
