import { describe, expect, layer } from "@effect/vitest"
import { Effect, Either, Layer, Option, Redacted, Schema } from "effect"
import { AgentStore } from "../src/agents/AgentStore.js"
import { CampaignStore } from "../src/campaigns/CampaignStore.js"
import { CallFragmentStore } from "../src/calls/CallFragmentStore.js"
import { ChannelStore } from "../src/calls/ChannelStore.js"
import { DoNotCallStore } from "../src/do-not-call/DoNotCallStore.js"
import { IdempotencyKey } from "../src/idempotency/IdempotencyKey.js"
import type { IdempotencyClaim } from "../src/idempotency/IdempotencyRecord.js"
import * as IdempotencyRule from "../src/idempotency/IdempotencyRule.js"
import { IdempotencyStore } from "../src/idempotency/IdempotencyStore.js"
import { ImprovementStore } from "../src/improvements/ImprovementStore.js"
import { IntegrationStore } from "../src/integrations/IntegrationStore.js"
import { DocumentStore } from "../src/knowledge-base/DocumentStore.js"
import type { MinorUnits as MinorUnitsType } from "../src/money/Money.js"
import { MinorUnits } from "../src/money/Money.js"
import { ApiKeyStore } from "../src/organizations/ApiKeyStore.js"
import type { OrganizationId } from "../src/organizations/Organization.js"
import { OrganizationStore } from "../src/organizations/OrganizationStore.js"
import { PhoneNumberStore } from "../src/phone-numbers/PhoneNumberStore.js"
import { RunId } from "../src/runs/RunId.js"
import { RunStore } from "../src/runs/RunStore.js"
import type { Stores } from "../src/storage/Stores.js"
import { Transactions } from "../src/storage/Transactions.js"
import { CredentialStore } from "../src/tools/CredentialStore.js"
import * as ToolCallLog from "../src/tools/ToolCallLog.js"
import { ToolDefinition } from "../src/tools/ToolDefinition.js"
import { ToolStore } from "../src/tools/ToolStore.js"
import { triggerIdFrom } from "../src/triggers/Trigger.js"
import { TriggerStore } from "../src/triggers/TriggerStore.js"
import * as UsageReport from "../src/usage/UsageReport.js"
import type { UsageRecord } from "../src/usage/UsageRecord.js"
import { UsageStore } from "../src/usage/UsageStore.js"
import type { WebhookDelivery } from "../src/webhooks/WebhookDelivery.js"
import { deliveryIdFrom } from "../src/webhooks/WebhookDelivery.js"
import { endpointIdFrom } from "../src/webhooks/WebhookEndpoint.js"
import type { ClaimRequest } from "../src/webhooks/WebhookStore.js"
import { WebhookStore } from "../src/webhooks/WebhookStore.js"
import { campaignStoreContract } from "./CampaignStoreContract.js"
import { campaignTallyContract } from "./CampaignTallyContract.js"
import * as Fixtures from "./Fixtures.js"

const page = (n: number, limit = 50) => ({ page: n, limit })
/** A stored run of a fresh agent of the organization. */
const runOf = (organizationId: OrganizationId) =>
  Effect.gen(function* () {
    const { agent } = yield* Fixtures.agent(organizationId)
    return yield* (yield* RunStore).insert(Fixtures.newRun(organizationId, agent.id), at(0))
  })
const at = (offsetSeconds: number) => new Date(Fixtures.epoch.getTime() + offsetSeconds * 1000)
// Polish geographic area codes times 10^7 subscriber numbers: collisions stay unlikely even in a
// persistent database that many runs write to.
const areaCodes = [
  12, 13, 14, 15, 16, 17, 18, 22, 23, 24, 25, 29, 32, 33, 34, 41, 42, 43, 44, 46, 48, 52, 54, 55, 56, 58, 59,
  61, 62, 63, 65, 67, 68, 71, 74, 75, 76, 77, 81, 82, 83, 84, 85, 86, 87, 89, 91, 94, 95
]
const randomPolishNumber = Effect.map(Fixtures.unique(), (s) => {
  const digits = Array.from(s, (c) => c.charCodeAt(0) % 10).join("")
  return `+48${areaCodes[s.charCodeAt(8) % areaCodes.length]}${digits.slice(0, 7)}`
})

/**
 * The behaviour every storage adapter must have, written once and run against each (in-memory, PGlite,
 * PostgreSQL). Tests never assume an empty database: each makes its own organization.
 */
export const storeContract = (name: string, stores: Layer.Layer<Stores, unknown>) =>
  layer(stores, { timeout: "60 seconds" })(`storage contract: ${name}`, (it) => {
    describe("organizations", () => {
      it.effect("inserts, finds, updates", () =>
        Effect.gen(function* () {
          const store = yield* OrganizationStore
          const before = yield* store.count
          const org = yield* Fixtures.organization({ outbound_channels: 3, balance: 500 })
          expect(yield* store.count).toBeGreaterThan(before)
          expect(Option.getOrThrow(yield* store.find(org.id))).toEqual(org)
          const updated = yield* store.update(org.id, { outbound_channels: 7, recording_retention_days: 30 })
          expect(Option.getOrThrow(updated)).toMatchObject({
            outbound_channels: 7,
            recording_retention_days: 30,
            balance: 500
          })
        })
      )

      it.effect("debits only what the balance covers, exactly, under concurrency", () =>
        Effect.gen(function* () {
          const store = yield* OrganizationStore
          const org = yield* Fixtures.organization({ balance: 1000 })
          const results = yield* Effect.all(
            Array.from({ length: 25 }, () => Effect.either(store.debit(org.id, MinorUnits.make(100)))),
            { concurrency: "unbounded" }
          )
          expect(results.filter(Either.isRight)).toHaveLength(10)
          const refused = results.filter(Either.isLeft)
          expect(refused).toHaveLength(15)
          expect(refused[0]?.left).toMatchObject({
            _tag: "InsufficientBalance",
            balance: 0,
            required: 100,
            top_up: 100
          })
          expect(Option.getOrThrow(yield* store.find(org.id)).balance).toBe(0)
          const credited = yield* store.credit(org.id, MinorUnits.make(250))
          expect(Option.getOrThrow(credited).balance).toBe(250)
        })
      )
    })

    campaignStoreContract(it)
    campaignTallyContract(it)

    describe("API keys", () => {
      it.effect("finds an active key by hash, and never a revoked one", () =>
        Effect.gen(function* () {
          const keys = yield* ApiKeyStore
          const org = yield* Fixtures.organization()
          const hash = `hash-${yield* Fixtures.unique()}`
          const key = yield* keys.insert(
            { organization_id: org.id, key_hash: hash, key_prefix: "vap_abcd" },
            Fixtures.epoch
          )
          const found = Option.getOrThrow(yield* keys.findActiveByHash(hash))
          expect(found.apiKey.id).toBe(key.id)
          expect(found.organization.id).toBe(org.id)
          const revoked = Option.getOrThrow(yield* keys.revoke(key.id, at(60)))
          expect(revoked.revoked_at).toEqual(at(60))
          expect(Option.isNone(yield* keys.findActiveByHash(hash))).toBe(true)
          expect(Option.getOrThrow(yield* keys.revoke(key.id, at(120))).revoked_at).toEqual(at(60))
          expect((yield* keys.list(org.id)).map((k) => k.id)).toEqual([key.id])
        })
      )
    })

    describe("agents", () => {
      it.effect("finds an agent by public id and by number, only within its organization", () =>
        Effect.gen(function* () {
          const store = yield* AgentStore
          const org = yield* Fixtures.organization()
          const other = yield* Fixtures.organization()
          const { agent, definition } = yield* Fixtures.agent(org.id)
          expect(definition.version).toBe(1)
          expect(agent.current_definition_id).toBe(definition.id)
          const byPublicId = yield* store.find(org.id, { _tag: "PublicId", publicId: agent.public_id })
          const byNumber = yield* store.find(org.id, { _tag: "Number", id: agent.id })
          expect(Option.getOrThrow(byPublicId)).toEqual(agent)
          expect(Option.getOrThrow(byNumber)).toEqual(agent)
          expect(Option.isNone(yield* store.find(other.id, { _tag: "Number", id: agent.id }))).toBe(true)
          expect(
            Option.isNone(yield* store.find(other.id, { _tag: "PublicId", publicId: agent.public_id }))
          ).toBe(true)
          expect(Option.isNone(yield* store.findDefinition(other.id, definition.id))).toBe(true)
        })
      )

      it.effect("lists newest first, stable across pages, filtered by status", () =>
        Effect.gen(function* () {
          const store = yield* AgentStore
          const org = yield* Fixtures.organization()
          const created = []
          for (let i = 0; i < 5; i++) created.push((yield* Fixtures.agent(org.id, `a${i}`, at(i % 3))).agent)
          yield* store.update(org.id, created[0]!.id, { status: "archived" }, at(10))
          const first = yield* store.list(org.id, {}, page(1, 2))
          const second = yield* store.list(org.id, {}, page(2, 2))
          const third = yield* store.list(org.id, {}, page(3, 2))
          expect(first.total_count).toBe(5)
          expect(first.total_pages).toBe(3)
          // created at 0, 1, 2, 0, 1 seconds: newest first, ties by the higher (random) id
          const higherIdFirst = (...agents: ReadonlyArray<{ id: number; name: string }>) =>
            [...agents].sort((x, y) => y.id - x.id).map((a) => a.name)
          expect([...first.items, ...second.items, ...third.items].map((a) => a.name)).toEqual([
            "a2",
            ...higherIdFirst(created[1]!, created[4]!),
            ...higherIdFirst(created[0]!, created[3]!)
          ])
          expect(
            (yield* store.list(org.id, { status: "archived" }, page(1))).items.map((a) => a.name)
          ).toEqual(["a0"])
          expect((yield* store.list(org.id, {}, page(9, 2))).items).toEqual([])
        })
      )

      it.effect(
        "merges configuration patches atomically: concurrent patches of different fields both land",
        () =>
          Effect.gen(function* () {
            const store = yield* AgentStore
            const org = yield* Fixtures.organization()
            const { agent } = yield* Fixtures.agent(org.id)
            yield* Effect.all(
              [
                store.update(org.id, agent.id, { workflow_configurations: { voice: "ada" } }, at(1)),
                store.update(
                  org.id,
                  agent.id,
                  { workflow_configurations: { transfer_numbers: ["+48221234567"] } },
                  at(1)
                )
              ],
              { concurrency: "unbounded" }
            )
            const updated = Option.getOrThrow(yield* store.find(org.id, { _tag: "Number", id: agent.id }))
            expect(updated.workflow_configurations).toEqual({
              ...agent.workflow_configurations,
              voice: "ada",
              transfer_numbers: ["+48221234567"]
            })
          })
      )

      it.effect("appends definition versions atomically: concurrent appends all land", () =>
        Effect.gen(function* () {
          const store = yield* AgentStore
          const org = yield* Fixtures.organization()
          const { agent } = yield* Fixtures.agent(org.id)
          yield* Effect.all(
            Array.from({ length: 12 }, (_, i) =>
              store.appendDefinition(
                org.id,
                agent.id,
                (d) => ({ ...d, system_prompt: `${d.system_prompt}\n#${i}` }),
                at(i)
              )
            ),
            { concurrency: "unbounded" }
          )
          const versions = yield* store.listDefinitions(org.id, agent.id, page(1, 100))
          expect(versions.items.map((d) => d.version)).toEqual(Array.from({ length: 13 }, (_, i) => 13 - i))
          const current = Option.getOrThrow(yield* store.find(org.id, { _tag: "Number", id: agent.id }))
          const latest = Option.getOrThrow(yield* store.findDefinition(org.id, current.current_definition_id))
          expect(latest.version).toBe(13)
          for (let i = 0; i < 12; i++) expect(latest.workflow_definition.system_prompt).toContain(`\n#${i}`)
        })
      )
    })

    describe("improvements", () => {
      it.effect("decides a suggestion once: of two racing decisions exactly one wins", () =>
        Effect.gen(function* () {
          const store = yield* ImprovementStore
          const org = yield* Fixtures.organization()
          const { agent, definition } = yield* Fixtures.agent(org.id)
          const suggestion = yield* store.insert(
            {
              organization_id: org.id,
              agent_id: agent.id,
              text: "Be brief.",
              rationale: null,
              source_run_id: null
            },
            Fixtures.epoch
          )
          expect(suggestion.status).toBe("pending")
          const results = yield* Effect.all(
            [
              store.decideIfPending(org.id, suggestion.id, { status: "accepted", decided_at: at(1) }),
              store.decideIfPending(org.id, suggestion.id, { status: "dismissed", decided_at: at(1) })
            ],
            { concurrency: "unbounded" }
          )
          expect(results.filter(Option.isSome)).toHaveLength(1)
          const applied = yield* store.setAppliedDefinition(org.id, suggestion.id, definition.id)
          expect(Option.getOrThrow(applied).applied_definition_id).toBe(definition.id)
          const listed = yield* store.list(org.id, agent.id, { status: "pending" }, page(1))
          expect(listed.total_count).toBe(0)
        })
      )
    })

    describe("runs", () => {
      it.effect("stores, filters, updates and erases runs within the organization", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const org = yield* Fixtures.organization()
          const other = yield* Fixtures.organization()
          const { agent } = yield* Fixtures.agent(org.id)
          const first = yield* runs.insert(Fixtures.newRun(org.id, agent.id), at(0))
          const second = yield* runs.insert(
            Fixtures.newRun(org.id, agent.id, { status: "completed" }),
            at(10)
          )
          expect(first.initial_context).toEqual({ phone_number: "+48500000100" })
          expect(
            (yield* runs.list(org.id, agent.id, {}, page(1))).items.map((r) => r.workflow_run_id)
          ).toEqual([second.workflow_run_id, first.workflow_run_id])
          expect((yield* runs.list(org.id, agent.id, { status: "completed" }, page(1))).total_count).toBe(1)
          expect((yield* runs.list(org.id, agent.id, { created_after: at(5) }, page(1))).total_count).toBe(1)
          expect((yield* runs.list(org.id, agent.id, { created_before: at(10) }, page(1))).total_count).toBe(
            1
          )
          expect(Option.isNone(yield* runs.find(other.id, first.workflow_run_id))).toBe(true)
          // a held read answers what a read answers, in a transaction and outside one
          const transactions = yield* Transactions
          expect(yield* transactions.run(runs.findForUpdate(org.id, first.workflow_run_id))).toEqual(
            yield* runs.find(org.id, first.workflow_run_id)
          )
          expect(Option.isNone(yield* runs.findForUpdate(other.id, first.workflow_run_id))).toBe(true)
          const updated = yield* runs.update(org.id, first.workflow_run_id, {
            status: "completed",
            gathered_context: { email: "a@b.pl" },
            duration_seconds: 42,
            cost: MinorUnits.make(84),
            ended_at: at(50)
          })
          expect(Option.getOrThrow(updated)).toMatchObject({
            status: "completed",
            duration_seconds: 42,
            cost: 84
          })
          expect(yield* runs.countByAgent(org.id, agent.id)).toBe(2)
          expect(Option.isSome(yield* runs.remove(org.id, first.workflow_run_id))).toBe(true)
          expect(Option.isNone(yield* runs.find(org.id, first.workflow_run_id))).toBe(true)
          expect(yield* runs.countByAgent(org.id, agent.id)).toBe(1)
        })
      )

      it.effect(
        "pages an agent's runs newest first, ties by the higher id, from either end, with filters",
        () =>
          Effect.gen(function* () {
            const runs = yield* RunStore
            const org = yield* Fixtures.organization()
            const { agent } = yield* Fixtures.agent(org.id)
            // 23 runs, three to an instant (ties), every third one completed
            const inserted: Array<{ id: number; at: number; completed: boolean }> = []
            for (let i = 0; i < 23; i++) {
              const completed = i % 3 === 0
              const run = yield* runs.insert(
                Fixtures.newRun(org.id, agent.id, completed ? { status: "completed" } : {}),
                at(Math.floor(i / 3))
              )
              inserted.push({ id: run.workflow_run_id, at: Math.floor(i / 3), completed })
            }
            const newestFirst = (rows: typeof inserted) =>
              [...rows].sort((a, b) => b.at - a.at || b.id - a.id).map((row) => row.id)
            const walk = (limit: number, filter: { readonly status?: "completed" }) =>
              Effect.gen(function* () {
                const ids: Array<number> = []
                for (let n = 1; ; n++) {
                  const listed = yield* runs.list(org.id, agent.id, filter, page(n, limit))
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
              expect(completed.total).toBe(8)
            }
          })
      )

      it.effect("counts an agent's runs exactly: concurrent inserts, deletions, a rolled-back insert", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const transactions = yield* Transactions
          const org = yield* Fixtures.organization()
          const { agent } = yield* Fixtures.agent(org.id)
          const { agent: otherAgent } = yield* Fixtures.agent(org.id)
          const inserted = yield* Effect.all(
            Array.from({ length: 20 }, (_, i) => runs.insert(Fixtures.newRun(org.id, agent.id), at(i))),
            { concurrency: "unbounded" }
          )
          yield* runs.insert(Fixtures.newRun(org.id, otherAgent.id), at(0))
          yield* Effect.either(
            transactions.run(
              Effect.zipRight(runs.insert(Fixtures.newRun(org.id, agent.id), at(99)), Effect.fail("undone"))
            )
          )
          yield* Effect.all(
            inserted.slice(0, 5).map((run) => runs.remove(org.id, run.workflow_run_id)),
            { concurrency: "unbounded" }
          )
          expect(yield* runs.countByAgent(org.id, agent.id)).toBe(15)
          expect((yield* runs.list(org.id, agent.id, {}, page(1))).total_count).toBe(15)
          expect((yield* runs.list(org.id, agent.id, { status: "queued" }, page(1))).total_count).toBe(15)
          expect(yield* runs.countByAgent(org.id, otherAgent.id)).toBe(1)
        })
      )

      it.effect("finds a run by its global id for a voice runtime, whatever its organization", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const org = yield* Fixtures.organization()
          const { agent } = yield* Fixtures.agent(org.id)
          const run = yield* runs.insert(Fixtures.newRun(org.id, agent.id), at(0))
          const found = Option.getOrThrow(yield* runs.findAnyOrganization(run.workflow_run_id))
          expect(found).toEqual(run)
          expect(found.organization_id).toBe(org.id)
          yield* runs.remove(org.id, run.workflow_run_id)
          expect(Option.isNone(yield* runs.findAnyOrganization(run.workflow_run_id))).toBe(true)
        })
      )

      it.effect(
        "keeps the agent version a run was placed with, and tool-call lines in its logs until erased",
        () =>
          Effect.gen(function* () {
            const runs = yield* RunStore
            const agents = yield* AgentStore
            const org = yield* Fixtures.organization()
            const { agent, definition } = yield* Fixtures.agent(org.id)
            const run = yield* runs.insert(
              Fixtures.newRun(org.id, agent.id, { agent_definition_id: definition.id }),
              at(0)
            )
            // a later version of the agent is not the run's
            yield* agents.appendDefinition(
              org.id,
              agent.id,
              (current) => ({ ...current, system_prompt: "v2" }),
              at(1)
            )
            const toolCall = {
              tool_uuid: "7d3f1c1e-0000-4000-8000-000000000001",
              tool_type: "http_api",
              arguments: { order: "A-1", nested: { count: 2 } },
              arguments_truncated: false,
              outcome: "error" as const,
              error_type: "http_status",
              status_code: 500,
              duration_ms: 12,
              response: '{"error":"boom"}',
              response_truncated: false
            }
            yield* runs.update(org.id, run.workflow_run_id, {
              logs: [
                { timestamp: at(2), level: "info", message: "plain line" },
                { timestamp: at(3), level: "warning", message: "Tool failed", tool_call: toolCall }
              ]
            })
            const stored = Option.getOrThrow(yield* runs.find(org.id, run.workflow_run_id))
            expect(stored.agent_definition_id).toBe(definition.id)
            expect(stored.logs).toEqual([
              { timestamp: at(2), level: "info", message: "plain line" },
              { timestamp: at(3), level: "warning", message: "Tool failed", tool_call: toolCall }
            ])
            const legacy = yield* runs.insert(Fixtures.newRun(org.id, agent.id), at(4))
            expect(legacy.agent_definition_id).toBeNull()
            yield* runs.remove(org.id, run.workflow_run_id)
            expect(Option.isNone(yield* runs.findAnyOrganization(run.workflow_run_id))).toBe(true)
          })
      )

      it.effect("keeps the log of a tool call whose response had an emoji straddling the 4 KiB cut", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const org = yield* Fixtures.organization()
          const { agent } = yield* Fixtures.agent(org.id)
          const run = yield* runs.insert(Fixtures.newRun(org.id, agent.id), at(0))
          // `{"big":"` is 8 characters: the emoji's first half would be character 4096 of the kept text
          const toolCall = ToolCallLog.record(
            { tool_uuid: "7d3f1c1e-0000-4000-8000-000000000002", type: "http_api" },
            // `{"note":"` is 9 characters: kept, the note is cut at 4085, where the emoji's first half is
            { note: `${"y".repeat(4084)}😀 and more` },
            {
              ok: true,
              status_code: 200,
              duration_ms: 3,
              response: { big: `${"x".repeat(4087)}😀 more` },
              message: null,
              error: null
            },
            []
          )
          const logs = [
            { timestamp: at(1), level: "info" as const, message: "Tool answered", tool_call: toolCall }
          ]
          yield* runs.update(org.id, run.workflow_run_id, { logs })
          expect(Option.getOrThrow(yield* runs.find(org.id, run.workflow_run_id)).logs).toEqual(logs)
        })
      )
    })

    describe("runs for housekeeping", () => {
      it.effect("finds ended runs with files by end and cursor, and the organizations that have them", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const org = yield* Fixtures.organization()
          const other = yield* Fixtures.organization()
          const fileless = yield* Fixtures.organization()
          const { agent } = yield* Fixtures.agent(org.id)
          const { agent: otherAgent } = yield* Fixtures.agent(other.id)
          const { agent: filelessAgent } = yield* Fixtures.agent(fileless.id)
          const files = { recording: "r.wav", transcript: null }
          const none = { recording: null, transcript: null }
          const ended = (endedAt: Date, runFiles: typeof files | typeof none = files) =>
            runs.insert(
              Fixtures.newRun(org.id, agent.id, { status: "completed", files: runFiles, ended_at: endedAt }),
              at(0)
            )
          const a = yield* ended(at(100))
          const b = yield* ended(at(50))
          const c = yield* ended(at(100))
          yield* ended(at(10), none)
          yield* ended(at(500))
          yield* runs.insert(Fixtures.newRun(org.id, agent.id, { status: "in_progress", files }), at(0))
          yield* runs.insert(
            Fixtures.newRun(other.id, otherAgent.id, { status: "completed", files, ended_at: at(10) }),
            at(0)
          )
          yield* runs.insert(
            Fixtures.newRun(fileless.id, filelessAgent.id, { status: "completed", ended_at: at(10) }),
            at(0)
          )
          const ids = (found: ReadonlyArray<{ readonly workflow_run_id: number }>) =>
            found.map((r) => r.workflow_run_id)
          // oldest end first; equal ends by id
          const [first, second] = [a, c].sort((x, y) => x.workflow_run_id - y.workflow_run_id)
          expect(ids(yield* runs.endedWithFiles(org.id, at(100), null, 10))).toEqual(
            ids([b, first!, second!])
          )
          expect(ids(yield* runs.endedWithFiles(org.id, at(100), null, 1))).toEqual([b.workflow_run_id])
          expect(
            ids(
              yield* runs.endedWithFiles(
                org.id,
                at(100),
                { ended_at: at(100), workflow_run_id: first!.workflow_run_id },
                10
              )
            )
          ).toEqual([second!.workflow_run_id])
          expect(ids(yield* runs.endedWithFiles(org.id, at(99), null, 10))).toEqual([b.workflow_run_id])
          const organizations = yield* runs.organizationsWithFiles
          expect(organizations).toContain(org.id)
          expect(organizations).toContain(other.id)
          expect(organizations).not.toContain(fileless.id)
        })
      )

      it.effect("finds live runs of every organization created by an instant, oldest first", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const org = yield* Fixtures.organization()
          const other = yield* Fixtures.organization()
          const { agent } = yield* Fixtures.agent(org.id)
          const { agent: otherAgent } = yield* Fixtures.agent(other.id)
          // long before any other test's runs, so a shared database's rows do not come first
          const past = (seconds: number) => new Date(Date.UTC(1990, 0, 1) + seconds * 1000)
          const insert = (
            status: "queued" | "ringing" | "in_progress" | "completed" | "initialized",
            s: number
          ) => runs.insert(Fixtures.newRun(org.id, agent.id, { status }), past(s))
          const ringing = yield* insert("ringing", 10)
          const queued = yield* insert("queued", 0)
          yield* insert("completed", 5)
          yield* insert("initialized", 1)
          const talking = yield* runs.insert(
            Fixtures.newRun(other.id, otherAgent.id, { status: "in_progress" }),
            past(20)
          )
          const later = yield* insert("queued", 30)
          const mine = new Set([ringing, queued, talking, later].map((r) => r.workflow_run_id))
          const live = (yield* runs.liveCreatedBy(past(20), 1000)).filter((r) => mine.has(r.workflow_run_id))
          expect(live.map((r) => r.workflow_run_id)).toEqual(
            [queued, ringing, talking].map((r) => r.workflow_run_id)
          )
          expect((yield* runs.liveCreatedBy(past(20), 2)).length).toBeLessThanOrEqual(2)
          // end them, so a persistent database does not keep them live for the next run
          for (const run of [ringing, queued, talking, later]) {
            yield* runs.update(run.organization_id, run.workflow_run_id, {
              status: "failed",
              ended_at: at(0)
            })
          }
          expect(
            (yield* runs.liveCreatedBy(past(30), 1000)).filter((r) => mine.has(r.workflow_run_id))
          ).toEqual([])
        })
      )
    })

    describe("outbound channels", () => {
      it.effect("grants exactly as many channels as the organization has, however many ask at once", () =>
        Effect.gen(function* () {
          const channels = yield* ChannelStore
          const org = yield* Fixtures.organization()
          const decisions = yield* Effect.all(
            Array.from({ length: 1000 }, (_, i) =>
              channels.reserve(
                {
                  id: `${org.id}-${i}`,
                  organization_id: org.id,
                  reserved_at: Fixtures.epoch,
                  expires_at: at(600),
                  expected_release_at: null
                },
                10,
                Fixtures.epoch
              )
            ),
            { concurrency: "unbounded" }
          )
          expect(decisions.filter((d) => d._tag === "Granted")).toHaveLength(10)
          expect((yield* channels.held(org.id, Fixtures.epoch)).length).toBe(10)
          const holder = (yield* channels.held(org.id, Fixtures.epoch))[0]!
          expect(yield* channels.release(org.id, holder.id)).toBe(true)
          expect(yield* channels.release(org.id, holder.id)).toBe(false)
          const again = yield* channels.reserve({ ...holder, id: `${org.id}-again` }, 10, Fixtures.epoch)
          expect(again._tag).toBe("Granted")
          // after their reclaim time every channel is free again
          const later = yield* channels.reserve(
            { ...holder, id: `${org.id}-later`, expires_at: at(1300) },
            10,
            at(700)
          )
          expect(later._tag).toBe("Granted")
          expect((yield* channels.held(org.id, at(700))).length).toBe(1)
        })
      )

      it.effect(
        "grants batches exactly too: the first ones of each, never above the organization's channels",
        () =>
          Effect.gen(function* () {
            const channels = yield* ChannelStore
            const org = yield* Fixtures.organization()
            const reservation = (id: string, expiresAt = at(600)) => ({
              id: `${org.id}-${id}`,
              organization_id: org.id,
              reserved_at: Fixtures.epoch,
              expires_at: expiresAt,
              expected_release_at: null
            })
            const batch = (k: number) =>
              Array.from({ length: 7 }, (_, i) => reservation(`b${k}-${i}`, at(600 + i)))
            const [batches, singles] = yield* Effect.all(
              [
                Effect.all(
                  Array.from({ length: 20 }, (_, k) =>
                    channels.reserveBatch(org.id, batch(k), 25, Fixtures.epoch)
                  ),
                  { concurrency: "unbounded" }
                ),
                Effect.all(
                  Array.from({ length: 20 }, (_, i) =>
                    channels.reserve(reservation(`s${i}`), 25, Fixtures.epoch)
                  ),
                  { concurrency: "unbounded" }
                )
              ],
              { concurrency: "unbounded" }
            )
            const granted =
              batches.reduce((sum, d) => sum + d.granted, 0) +
              singles.filter((d) => d._tag === "Granted").length
            expect(granted).toBe(25)
            const held = yield* channels.held(org.id, Fixtures.epoch)
            expect(held).toHaveLength(25)
            // each batch holds its first `granted` reservations, none after them
            batches.forEach((d, k) => {
              const mine = held.filter((r) => r.id.startsWith(`${org.id}-b${k}-`)).map((r) => r.id)
              expect(mine.sort()).toEqual(
                batch(k)
                  .slice(0, d.granted)
                  .map((r) => r.id)
                  .sort()
              )
              expect(d.retryAfterSeconds === null).toBe(d.granted === 7)
            })
            // a full organization: nothing granted, the Retry-After a single reservation hears
            const full = yield* channels.reserveBatch(org.id, [reservation("x")], 25, Fixtures.epoch)
            const single = yield* channels.reserve(reservation("y"), 25, Fixtures.epoch)
            expect(full).toEqual({
              granted: 0,
              retryAfterSeconds: single._tag === "Busy" ? single.retryAfterSeconds : -1
            })
            expect(yield* channels.reserveBatch(org.id, [], 25, Fixtures.epoch)).toEqual({
              granted: 0,
              retryAfterSeconds: null
            })
            // after their reclaim time a whole batch fits again
            const later = yield* channels.reserveBatch(org.id, batch(99), 25, at(2000))
            expect(later).toEqual({ granted: 7, retryAfterSeconds: null })
          })
      )
    })

    describe("live call transcript fragments", () => {
      it.effect("keeps every appended fragment in order, per run and organization, until cleared", () =>
        Effect.gen(function* () {
          const fragments = yield* CallFragmentStore
          const runs = yield* RunStore
          const org = yield* Fixtures.organization()
          const other = yield* Fixtures.organization()
          const { agent } = yield* Fixtures.agent(org.id)
          const run = yield* runs.insert(Fixtures.newRun(org.id, agent.id), at(0))
          const second = yield* runs.insert(Fixtures.newRun(org.id, agent.id), at(0))
          expect(yield* fragments.list(org.id, run.workflow_run_id)).toEqual([])
          const said = [
            {
              role: "assistant" as const,
              text: "Dzień dobry, mówi Ola.",
              timestamp: new Date(at(1).getTime() + 123)
            },
            { role: "user" as const, text: "Hello 👋", timestamp: at(2) },
            // the same instant as the one before: the order of appending decides
            { role: "assistant" as const, text: "", timestamp: at(2) }
          ]
          for (const fragment of said) yield* fragments.append(org.id, run.workflow_run_id, fragment)
          expect(yield* fragments.list(org.id, run.workflow_run_id)).toEqual(said)
          // another run and another organization see none of them
          expect(yield* fragments.list(org.id, second.workflow_run_id)).toEqual([])
          expect(yield* fragments.list(other.id, run.workflow_run_id)).toEqual([])
          yield* fragments.clear(other.id, run.workflow_run_id)
          expect(yield* fragments.list(org.id, run.workflow_run_id)).toHaveLength(3)
          // simultaneous appends lose nothing
          yield* Effect.all(
            Array.from({ length: 50 }, (_, i) =>
              fragments.append(org.id, second.workflow_run_id, {
                role: "user",
                text: `${i}`,
                timestamp: at(i)
              })
            ),
            { concurrency: "unbounded" }
          )
          const appended = yield* fragments.list(org.id, second.workflow_run_id)
          expect(appended.map((f) => Number(f.text)).sort((a, b) => a - b)).toEqual(
            Array.from({ length: 50 }, (_, i) => i)
          )
          yield* fragments.clear(org.id, run.workflow_run_id)
          expect(yield* fragments.list(org.id, run.workflow_run_id)).toEqual([])
          expect(yield* fragments.list(org.id, second.workflow_run_id)).toHaveLength(50)
        })
      )
    })

    describe("Do not call list", () => {
      it.effect("adds, finds, re-adds with a new reason, lists and removes", () =>
        Effect.gen(function* () {
          const list = yield* DoNotCallStore
          const org = yield* Fixtures.organization()
          const other = yield* Fixtures.organization()
          yield* list.add({
            organization_id: org.id,
            phone_number: "+48500000486",
            reason: null,
            created_at: at(0)
          })
          yield* list.add({
            organization_id: org.id,
            phone_number: "+48500000486",
            reason: "asked",
            created_at: at(5)
          })
          const entry = Option.getOrThrow(yield* list.find(org.id, "+48500000486"))
          expect(entry).toMatchObject({ reason: "asked" })
          expect(entry.created_at).toEqual(at(0))
          expect(Option.isNone(yield* list.find(other.id, "+48500000486"))).toBe(true)
          expect((yield* list.list(org.id, page(1))).total_count).toBe(1)
          const among = ["+48500000485", "+48500000486", "+48500000487"]
          expect(Array.from(yield* list.listedAmong(org.id, among))).toEqual(["+48500000486"])
          expect((yield* list.listedAmong(other.id, among)).size).toBe(0)
          expect((yield* list.listedAmong(org.id, [])).size).toBe(0)
          expect(yield* list.remove(org.id, "+48500000486")).toBe(true)
          expect(yield* list.remove(org.id, "+48500000486")).toBe(false)
        })
      )
    })

    describe("triggers", () => {
      it.effect("stores, lists newest first, archives, and scopes triggers to their organization", () =>
        Effect.gen(function* () {
          const triggers = yield* TriggerStore
          const org = yield* Fixtures.organization()
          const other = yield* Fixtures.organization()
          const { agent } = yield* Fixtures.agent(org.id)
          const suffix = yield* Fixtures.unique()
          const make = (n: number, offsetSeconds: number) =>
            triggers.insert({
              trigger_id: triggerIdFrom(`${suffix}${String(n).padStart(8, "0")}`),
              organization_id: org.id,
              agent_id: agent.id,
              name: `Trigger ${n}`,
              initial_context: { campaign: "spring", n },
              status: "active",
              created_at: at(offsetSeconds)
            })
          const first = yield* make(1, 0)
          const second = yield* make(2, 10)
          const third = yield* make(3, 10)
          expect(Option.getOrThrow(yield* triggers.find(org.id, first.trigger_id))).toEqual(first)
          expect(Option.isNone(yield* triggers.find(other.id, first.trigger_id))).toBe(true)
          const listed = yield* triggers.list(org.id, {}, page(1, 2))
          expect(listed.total_count).toBe(3)
          expect(listed.items.map((t) => t.name)).toEqual(["Trigger 3", "Trigger 2"])
          expect((yield* triggers.list(org.id, {}, page(2, 2))).items).toEqual([first])
          expect((yield* triggers.list(other.id, {}, page(1))).total_count).toBe(0)

          expect(Option.isNone(yield* triggers.archive(other.id, second.trigger_id))).toBe(true)
          const archived = Option.getOrThrow(yield* triggers.archive(org.id, second.trigger_id))
          expect(archived).toEqual({ ...second, status: "archived" })
          expect(Option.getOrThrow(yield* triggers.archive(org.id, second.trigger_id)).status).toBe(
            "archived"
          )
          expect(
            (yield* triggers.list(org.id, { status: "archived" }, page(1))).items.map((t) => t.trigger_id)
          ).toEqual([second.trigger_id])
          expect(
            (yield* triggers.list(org.id, { status: "active" }, page(1))).items.map((t) => t.trigger_id)
          ).toEqual([third.trigger_id, first.trigger_id])
        })
      )
    })

    describe("phone numbers", () => {
      it.effect("gives the last inventory number to exactly one of two racing orders", () =>
        Effect.gen(function* () {
          const numbers = yield* PhoneNumberStore
          const org = yield* Fixtures.organization()
          const other = yield* Fixtures.organization()
          const number = yield* numbers.addToInventory(
            { number: yield* randomPolishNumber, number_type: "landline" },
            at(0)
          )
          const duplicate = yield* Effect.either(
            numbers.addToInventory({ number: number.number, number_type: "landline" }, at(0))
          )
          expect(Either.isLeft(duplicate)).toBe(true)
          const claims = yield* Effect.all(
            [
              numbers.claim(org.id, { number_type: "landline", id: number.id }, at(1)),
              numbers.claim(other.id, { number_type: "landline", id: number.id }, at(1))
            ],
            { concurrency: "unbounded" }
          )
          expect(claims.filter(Option.isSome)).toHaveLength(1)
          const winner = claims[0]!.pipe(
            Option.orElse(() => claims[1]!),
            Option.getOrThrow
          )
          expect(winner.status).toBe("active")
          const owner = winner.organization_id!
          expect((yield* numbers.listOwned(owner, page(1))).items.map((n) => n.id)).toContain(number.id)
          expect(
            Option.isNone(yield* numbers.release(owner === org.id ? other.id : org.id, number.id, at(2)))
          ).toBe(true)
          expect(Option.getOrThrow(yield* numbers.release(owner, number.id, at(2))).status).toBe("released")
          expect(Option.isNone(yield* numbers.release(owner, number.id, at(3)))).toBe(true)
          const request = yield* numbers.insertRequest(
            {
              organization_id: org.id,
              end_user_id: 7,
              consent: true,
              note: "Warsaw please",
              number_type: "mobile"
            },
            at(4)
          )
          expect(request.status).toBe("open")
          expect((yield* numbers.listRequests(org.id, page(1))).items).toEqual([request])
        })
      )
    })

    describe("usage ledger", () => {
      it.effect("keeps one line per run and sums a period", () =>
        Effect.gen(function* () {
          const usage = yield* UsageStore
          const runs = yield* RunStore
          const org = yield* Fixtures.organization()
          const { agent } = yield* Fixtures.agent(org.id)
          const run = yield* runs.insert(Fixtures.newRun(org.id, agent.id), at(0))
          const line = {
            organization_id: org.id,
            run_id: run.workflow_run_id,
            agent_id: agent.id,
            mode: "phone",
            duration_seconds: 61,
            cost: MinorUnits.make(122),
            currency: "PLN" as const,
            recorded_at: at(100)
          }
          const first = yield* usage.record(line)
          const again = yield* usage.record({ ...line, cost: MinorUnits.make(999) })
          expect(again.id).toBe(first.id)
          expect(yield* usage.totals(org.id, {})).toEqual({ calls: 1, duration_seconds: 61, cost: 122 })
          expect(yield* usage.totals(org.id, { from: at(101) })).toEqual({
            calls: 0,
            duration_seconds: 0,
            cost: 0
          })
          // erasing the run keeps its line in the ledger
          yield* runs.remove(org.id, run.workflow_run_id)
          expect((yield* usage.list(org.id, {}, page(1))).total_count).toBe(1)
        })
      )
    })

    describe("usage reports", () => {
      it.effect("sum per UTC day and per agent exactly as the lines add up, within the period", () =>
        Effect.gen(function* () {
          const usage = yield* UsageStore
          const runs = yield* RunStore
          const org = yield* Fixtures.organization()
          const other = yield* Fixtures.organization()
          const agents = yield* Effect.all([
            Fixtures.agent(org.id),
            Fixtures.agent(org.id),
            Fixtures.agent(org.id)
          ])
          const { agent: stranger } = yield* Fixtures.agent(other.id)
          // lines around UTC midnights and the period's bounds, with a deterministic spread of values
          const base = new Date("2026-03-30T22:00:00.000Z").getTime()
          const lines: Array<UsageRecord> = []
          for (let i = 0; i < 60; i++) {
            const { agent } = agents[(i * 7) % 3]!
            const run = yield* runs.insert(Fixtures.newRun(org.id, agent.id), at(0))
            const line = {
              organization_id: org.id,
              run_id: run.workflow_run_id,
              agent_id: agent.id,
              mode: "phone",
              duration_seconds: (i * 37) % 300,
              cost: MinorUnits.make(((i * 53) % 1000) - 100),
              currency: "PLN" as const,
              recorded_at: new Date(base + i * 97 * 60_000 + (i % 2) * 999)
            }
            lines.push(yield* usage.record(line))
          }
          // another organization's line in the same hours counts for it only
          const foreign = yield* runs.insert(Fixtures.newRun(other.id, stranger.id), at(0))
          yield* usage.record({
            organization_id: other.id,
            run_id: foreign.workflow_run_id,
            agent_id: stranger.id,
            mode: "phone",
            duration_seconds: 0,
            cost: MinorUnits.make(-100),
            currency: "PLN",
            recorded_at: lines[0]!.recorded_at
          })

          const periods = [
            {},
            { from: new Date(base + 3_600_000) },
            { from: new Date(base + 3_600_000), to: new Date(base + 2 * 86_400_000 + 1) },
            { to: new Date(base - 1) }
          ]
          for (const period of periods) {
            const within = lines.filter(
              (l) =>
                (period.from === undefined || l.recorded_at >= period.from) &&
                (period.to === undefined || l.recorded_at < period.to)
            )
            for (const groupBy of ["day", "agent"] as const) {
              // the in-memory reference: the rows grouped from the lines themselves
              expect(yield* usage.report(org.id, period, groupBy)).toEqual(UsageReport.group(within, groupBy))
            }
          }
          const byDay = yield* usage.report(org.id, {}, "day")
          expect(byDay.map((row) => (row.group === "day" ? row.day : ""))).toEqual([
            "2026-03-30",
            "2026-03-31",
            "2026-04-01",
            "2026-04-02",
            "2026-04-03"
          ])
          expect(yield* usage.report(other.id, {}, "agent")).toEqual([
            { group: "agent", agent_id: stranger.id, calls: 1, duration_seconds: 0, cost: -100 }
          ])
        })
      )
    })

    describe("tools, credentials, documents, campaigns, integrations", () => {
      it.effect("store and scope every record to its organization", () =>
        Effect.gen(function* () {
          const org = yield* Fixtures.organization()
          const other = yield* Fixtures.organization()
          const suffix = yield* Fixtures.unique()

          const tools = yield* ToolStore
          const tool = yield* tools.insert(
            {
              tool_uuid: `tool-${suffix}`,
              organization_id: org.id,
              name: "End call",
              description: null,
              category: "end_call",
              icon: "globe",
              icon_color: "#3B82F6",
              status: "active",
              definition: { schema_version: 1, type: "end_call", config: { messageType: "none" } },
              created_by: null
            },
            at(0)
          )
          expect(Option.isNone(yield* tools.find(other.id, tool.tool_uuid))).toBe(true)
          // a held read answers what a read answers, in a transaction and outside one
          const transactions = yield* Transactions
          expect(yield* transactions.run(tools.findForUpdate(org.id, tool.tool_uuid))).toEqual(
            yield* tools.find(org.id, tool.tool_uuid)
          )
          expect(Option.isNone(yield* tools.findForUpdate(other.id, tool.tool_uuid))).toBe(true)
          // the active tools whose definitions name a credential, oldest first
          const httpTool = (n: number, credentialUuid: string | null) =>
            tools.insert(
              {
                tool_uuid: `tool-${suffix}-http-${n}`,
                organization_id: org.id,
                name: `Lookup ${n}`,
                description: null,
                category: "http_api",
                icon: null,
                icon_color: null,
                status: "active",
                definition: Schema.decodeUnknownSync(ToolDefinition)({
                  schema_version: 1,
                  type: "http_api",
                  config: { method: "GET", url: "https://example.com", credential_uuid: credentialUuid }
                }),
                created_by: null
              },
              at(n)
            )
          const usingA = [yield* httpTool(1, `cred-a-${suffix}`), yield* httpTool(2, `cred-a-${suffix}`)]
          const usingB = yield* httpTool(3, `cred-b-${suffix}`)
          yield* httpTool(4, null)
          expect(yield* tools.activeUsingCredential(org.id, `cred-a-${suffix}`)).toEqual(
            usingA.map((t) => t.tool_uuid)
          )
          expect(yield* tools.activeUsingCredential(other.id, `cred-a-${suffix}`)).toEqual([])
          // a changed definition, and archiving, change what uses what
          yield* tools.update(org.id, usingA[0]!.tool_uuid, { definition: usingB.definition }, at(5))
          yield* tools.update(org.id, usingA[1]!.tool_uuid, { status: "archived" }, at(5))
          expect(yield* tools.activeUsingCredential(org.id, `cred-a-${suffix}`)).toEqual([])
          expect(yield* tools.activeUsingCredential(org.id, `cred-b-${suffix}`)).toEqual([
            usingA[0]!.tool_uuid,
            usingB.tool_uuid
          ])
          for (const t of [usingA[0]!, usingB]) {
            yield* tools.update(org.id, t.tool_uuid, { status: "archived" }, at(6))
          }
          const remaining = yield* tools.list(org.id, { status: "active" }, page(1))
          for (const t of remaining.items)
            yield* tools.update(org.id, t.tool_uuid, { status: "archived" }, at(6))
          const archived = yield* tools.update(org.id, tool.tool_uuid, { status: "archived" }, at(1))
          expect(Option.getOrThrow(archived)).toMatchObject({ status: "archived", updated_at: at(1) })
          expect((yield* tools.list(org.id, { status: "active" }, page(1))).total_count).toBe(0)

          const credentials = yield* CredentialStore
          const credential = yield* credentials.insert({
            credential_uuid: `cred-${suffix}`,
            organization_id: org.id,
            name: "CRM token",
            kind: "bearer",
            header_name: null,
            secret: Redacted.make("s3cret"),
            created_at: at(0)
          })
          const found = Option.getOrThrow(yield* credentials.find(org.id, credential.credential_uuid))
          expect(
            Option.getOrThrow(
              yield* transactions.run(credentials.findForUpdate(org.id, credential.credential_uuid))
            )
          ).toEqual(found)
          expect(Option.isNone(yield* credentials.findForUpdate(other.id, credential.credential_uuid))).toBe(
            true
          )
          expect(Redacted.value(found.secret)).toBe("s3cret")
          expect(yield* credentials.remove(other.id, credential.credential_uuid)).toBe(false)
          expect(yield* credentials.remove(org.id, credential.credential_uuid)).toBe(true)

          const documents = yield* DocumentStore
          const document = yield* documents.insert(
            {
              document_uuid: `doc-${suffix}`,
              organization_id: org.id,
              filename: "faq.md",
              file_size_bytes: 12,
              file_hash: "00",
              mime_type: "text/markdown",
              processing_status: "pending",
              total_chunks: 0,
              custom_metadata: {},
              parser_metadata: {},
              blob_key: `documents/${suffix}`,
              created_by: null,
              is_active: true,
              processing_error: null,
              source_url: null
            },
            at(0)
          )
          expect(
            Option.getOrThrow(yield* documents.find(org.id, { _tag: "Uuid", uuid: document.document_uuid }))
              .id
          ).toBe(document.id)
          expect(Option.isNone(yield* documents.find(other.id, { _tag: "Id", id: document.id }))).toBe(true)
          yield* documents.replaceChunks(org.id, document.id, [
            { document_id: document.id, organization_id: org.id, index: 0, text: "Hello" }
          ])
          expect(yield* documents.chunks(org.id, document.id)).toHaveLength(1)
          expect(yield* documents.chunks(other.id, document.id)).toHaveLength(0)
          yield* documents.remove(org.id, document.id)
          expect(yield* documents.chunks(org.id, document.id)).toHaveLength(0)

          const campaigns = yield* CampaignStore
          const { agent } = yield* Fixtures.agent(org.id)
          const campaign = yield* campaigns.insert(
            Fixtures.newCampaign(org.id, agent.id, { max_attempts: 2, retry_delay_seconds: 600 }),
            at(0)
          )
          const { added: contacts } = yield* campaigns.addContacts(
            org.id,
            campaign.id,
            ["+48500000101", "+48500000102"].map((phone_number) => ({ phone_number, initial_context: {} })),
            at(0)
          )
          expect(
            (yield* campaigns.addContacts(
              other.id,
              campaign.id,
              [{ phone_number: "+48500000103", initial_context: {} }],
              at(0)
            )).added
          ).toEqual([])
          yield* campaigns.updateContact(org.id, contacts[1]!.id, { status: "completed", attempts: 1 })
          const pending = yield* campaigns.listContacts(org.id, campaign.id, { status: "pending" }, page(1))
          expect(pending.items.map((c) => c.phone_number)).toEqual(["+48500000101"])
          expect(Option.isNone(yield* campaigns.find(other.id, campaign.id))).toBe(true)

          const integrations = yield* IntegrationStore
          yield* integrations.insert({
            id: `conn-${suffix}`,
            organization_id: org.id,
            provider: "calendly",
            name: "Calendar",
            config: {},
            enabled: true,
            auth_error: null,
            created_at: at(0),
            updated_at: at(0)
          })
          const renamed = yield* integrations.update(org.id, `conn-${suffix}`, { name: "Bookings" }, at(3))
          expect(Option.getOrThrow(renamed)).toMatchObject({
            name: "Bookings",
            enabled: true,
            updated_at: at(3)
          })
          expect(Option.isNone(yield* integrations.find(other.id, `conn-${suffix}`))).toBe(true)
          expect(yield* transactions.run(integrations.findForUpdate(org.id, `conn-${suffix}`))).toEqual(
            yield* integrations.find(org.id, `conn-${suffix}`)
          )
          expect(Option.isNone(yield* integrations.findForUpdate(other.id, `conn-${suffix}`))).toBe(true)
        })
      )
    })

    describe("idempotency keys", () => {
      const ttl = { retentionSeconds: 86_400, leaseSeconds: 60 }
      const claimOf = (
        organization_id: IdempotencyClaim["organization_id"],
        key: IdempotencyKey,
        fingerprint: string,
        token: string
      ): IdempotencyClaim => ({ organization_id, key, fingerprint, token })
      const freshKey = Effect.map(Fixtures.unique(), (s) => IdempotencyKey.make(`key-${s}`))

      it.effect("claims a key exactly once, however many first requests arrive at once", () =>
        Effect.gen(function* () {
          const store = yield* IdempotencyStore
          const org = yield* Fixtures.organization()
          const key = yield* freshKey
          const outcomes = yield* Effect.all(
            Array.from({ length: 50 }, (_, i) =>
              store.begin(claimOf(org.id, key, "fp", `t${i}`), at(0), ttl)
            ),
            { concurrency: "unbounded" }
          )
          expect(outcomes.filter((o) => o._tag === "Claimed")).toHaveLength(1)
          expect(outcomes.filter((o) => o._tag === "InFlight")).toHaveLength(49)
          expect(outcomes.find((o) => o._tag === "InFlight")).toEqual({
            _tag: "InFlight",
            leaseUntil: at(60)
          })
        })
      )

      it.effect("replays the final answer to the same request, refuses another, per organization", () =>
        Effect.gen(function* () {
          const store = yield* IdempotencyStore
          const org = yield* Fixtures.organization()
          const other = yield* Fixtures.organization()
          const key = yield* freshKey
          const claim = claimOf(org.id, key, "fp-a", "holder")
          expect(yield* store.begin(claim, at(0), ttl)).toEqual({ _tag: "Claimed" })
          const response = { status: 200, body: { id: 7, items: [1, "two", null], nested: { ok: true } } }
          expect(yield* store.complete({ ...claim, token: "stranger" }, response)).toBe(false)
          expect(yield* store.complete(claim, response)).toBe(true)
          expect(yield* store.complete(claim, { status: 404, body: {} })).toBe(false)
          expect(yield* store.begin({ ...claim, token: "retry" }, at(10), ttl)).toEqual({
            _tag: "Replay",
            response
          })
          expect(yield* store.begin(claimOf(org.id, key, "fp-b", "other-body"), at(10), ttl)).toEqual({
            _tag: "Mismatch"
          })
          // a completed key is no longer held: nobody can abandon it
          expect(yield* store.abandon(claim)).toBe(false)
          expect(yield* store.begin(claimOf(other.id, key, "fp-b", "elsewhere"), at(10), ttl)).toEqual({
            _tag: "Claimed"
          })
        })
      )

      it.effect("frees an abandoned key, and only its holder may abandon it", () =>
        Effect.gen(function* () {
          const store = yield* IdempotencyStore
          const org = yield* Fixtures.organization()
          const key = yield* freshKey
          const claim = claimOf(org.id, key, "fp-a", "holder")
          expect((yield* store.begin(claim, at(0), ttl))._tag).toBe("Claimed")
          expect(yield* store.abandon({ ...claim, token: "stranger" })).toBe(false)
          expect((yield* store.begin({ ...claim, token: "second" }, at(1), ttl))._tag).toBe("InFlight")
          expect(yield* store.abandon(claim)).toBe(true)
          expect(yield* store.abandon(claim)).toBe(false)
          // once free, the key takes any request
          expect((yield* store.begin(claimOf(org.id, key, "fp-b", "next"), at(2), ttl))._tag).toBe("Claimed")
        })
      )

      it.effect("lets a lapsed claim be taken over, and forgets keys after their retention", () =>
        Effect.gen(function* () {
          const store = yield* IdempotencyStore
          const org = yield* Fixtures.organization()
          const key = yield* freshKey
          const first = claimOf(org.id, key, "fp", "first")
          const second = { ...first, token: "second" }
          expect((yield* store.begin(first, at(0), ttl))._tag).toBe("Claimed")
          expect((yield* store.begin(second, at(59), ttl))._tag).toBe("InFlight")
          expect((yield* store.begin(second, at(60), ttl))._tag).toBe("Claimed")
          // the first request's late answer no longer counts
          expect(yield* store.complete(first, { status: 200, body: { from: "first" } })).toBe(false)
          expect(yield* store.abandon(first)).toBe(false)
          const answer = { status: 403, body: { detail: "refused" } }
          expect(yield* store.complete(second, answer)).toBe(true)
          const retry = { ...first, token: "retry" }
          const lastMoment = new Date(at(60).getTime() + 86_400_000 - 1)
          expect(yield* store.begin(retry, lastMoment, ttl)).toEqual({ _tag: "Replay", response: answer })
          expect(yield* store.begin(retry, at(60 + 86_400), ttl)).toEqual({ _tag: "Claimed" })
        })
      )
      it.effect("erases the answers naming a deleted run, keeping the key answered without its data", () =>
        Effect.gen(function* () {
          const store = yield* IdempotencyStore
          const org = yield* Fixtures.organization()
          const other = yield* Fixtures.organization()
          const runId = RunId.make(987_654_321)
          const answer = { status: 200, body: { workflow_run_id: runId, phone_number: "+48500100200" } }
          const placing = claimOf(org.id, yield* freshKey, "fp-call", "holder")
          const unrelated = claimOf(org.id, yield* freshKey, "fp-other", "holder")
          const elsewhere = claimOf(other.id, yield* freshKey, "fp-call", "holder")
          for (const claim of [placing, unrelated, elsewhere]) {
            expect((yield* store.begin(claim, at(0), ttl))._tag).toBe("Claimed")
          }
          expect(yield* store.complete(placing, answer, runId)).toBe(true)
          expect(yield* store.complete(unrelated, { status: 200, body: { workflow_run_id: 1 } })).toBe(true)
          // the same run number in another organization is another run
          expect(yield* store.complete(elsewhere, answer, runId)).toBe(true)

          expect(yield* store.eraseRun(org.id, runId)).toBe(1)
          const erased = { _tag: "Replay", response: IdempotencyRule.erasedAnswer(runId) }
          // the same request, or any other under the key: the erased answer, nothing of the run
          expect(yield* store.begin({ ...placing, token: "retry" }, at(10), ttl)).toEqual(erased)
          expect(
            yield* store.begin({ ...placing, fingerprint: "fp-another-body", token: "x" }, at(10), ttl)
          ).toEqual(erased)
          expect(JSON.stringify(erased)).not.toContain("+48500100200")
          expect((yield* store.begin({ ...unrelated, token: "retry" }, at(10), ttl))._tag).toBe("Replay")
          expect(yield* store.begin({ ...elsewhere, token: "retry" }, at(10), ttl)).toEqual({
            _tag: "Replay",
            response: answer
          })
          expect(yield* store.eraseRun(org.id, runId)).toBe(0)
          // the erased key still expires as planned
          expect((yield* store.begin({ ...placing, token: "later" }, at(86_400), ttl))._tag).toBe("Claimed")
        })
      )

      it.effect("purges expired records in bounded batches, and nothing else", () =>
        Effect.gen(function* () {
          const store = yield* IdempotencyStore
          const org = yield* Fixtures.organization()
          const short = { retentionSeconds: 10, leaseSeconds: 5 }
          // far in the future of every other test's records: those are purged first, so that the counts
          // below are this test's own
          const base = new Date("2100-01-01T00:00:00.000Z").getTime()
          const moment = (seconds: number) => new Date(base + seconds * 1000)
          while ((yield* store.purgeExpired(moment(-1), 1000)) > 0) {
            // keep purging until nothing older is left
          }
          const keys = yield* Effect.all(Array.from({ length: 5 }, () => freshKey))
          for (const [i, key] of keys.entries()) {
            const claim = claimOf(org.id, key, "fp", `t${i}`)
            expect((yield* store.begin(claim, moment(i), short))._tag).toBe("Claimed")
            yield* store.complete(claim, { status: 200, body: { i } })
          }
          // at 12 s the records made at 0, 1 and 2 s have expired; the other two have not
          expect(yield* store.purgeExpired(moment(12), 2)).toBe(2)
          expect(yield* store.purgeExpired(moment(12), 2)).toBe(1)
          expect(yield* store.purgeExpired(moment(12), 2)).toBe(0)
          // a purged key is free; a live one still replays
          expect((yield* store.begin(claimOf(org.id, keys[0]!, "fp", "n"), moment(12), short))._tag).toBe(
            "Claimed"
          )
          expect((yield* store.begin(claimOf(org.id, keys[4]!, "fp", "n"), moment(12), short))._tag).toBe(
            "Replay"
          )
        })
      )
    })

    describe("webhooks", () => {
      /** A claim with no bounds beyond `limit`. */
      const claim = (now: Date, limit: number, bounds: Partial<ClaimRequest> = {}): ClaimRequest => ({
        now,
        limit,
        perEndpoint: 1000,
        perOrganization: 1000,
        skipEndpoints: [],
        skipOrganizations: [],
        ...bounds
      })

      it.effect(
        "stores endpoints and deliveries, claims each due delivery once under concurrency, purges",
        () =>
          Effect.gen(function* () {
            const store = yield* WebhookStore
            const runs = yield* RunStore
            const org = yield* Fixtures.organization()
            const other = yield* Fixtures.organization()
            const { agent } = yield* Fixtures.agent(org.id)
            const run = yield* runs.insert(Fixtures.newRun(org.id, agent.id), at(0))
            const otherRun = yield* runs.insert(Fixtures.newRun(org.id, agent.id), at(0))
            const suffix = yield* Fixtures.unique()
            const endpoint = (n: number, offsetSeconds: number) => ({
              id: endpointIdFrom(`${suffix}${String(n).padStart(8, "0")}`),
              organization_id: org.id,
              url: `https://example.com/${n}`,
              description: null,
              events: ["call.started", "call.ended"] as const,
              secret: "whsec_c2VjcmV0",
              enabled: true,
              created_at: at(offsetSeconds)
            })
            const first = yield* store.insertEndpoint(endpoint(1, 0))
            const second = yield* store.insertEndpoint(endpoint(2, 10))
            expect(Option.getOrThrow(yield* store.findEndpoint(org.id, first.id))).toEqual(first)
            expect(Option.isNone(yield* store.findEndpoint(other.id, first.id))).toBe(true)
            expect((yield* store.listEndpoints(org.id, page(1))).items.map((e) => e.id)).toEqual([
              second.id,
              first.id
            ])
            expect((yield* store.listEndpoints(other.id, page(1))).total_count).toBe(0)
            expect(Option.isNone(yield* store.updateEndpoint(other.id, first.id, { enabled: false }))).toBe(
              true
            )
            const disabled = Option.getOrThrow(
              yield* store.updateEndpoint(org.id, second.id, { enabled: false })
            )
            expect(disabled).toEqual({ ...second, enabled: false })
            expect((yield* store.subscribers(org.id, "call.started")).map((e) => e.id)).toEqual([first.id])
            expect(yield* store.subscribers(org.id, "call.deleted")).toEqual([])

            const delivery = (
              n: number,
              runId = run.workflow_run_id,
              endpointId = first.id
            ): WebhookDelivery => ({
              id: deliveryIdFrom(`${suffix}${String(n).padStart(12, "0")}`),
              organization_id: org.id,
              endpoint_id: endpointId,
              event_type: "call.started",
              run_id: runId,
              payload: { type: "call.started", timestamp: at(n).toISOString(), data: { n } },
              attempts: 0,
              status: "pending",
              next_attempt_at: at(n),
              last_status_code: null,
              last_error: null,
              created_at: at(n),
              delivered_at: null
            })
            const rows = Array.from({ length: 12 }, (_, i) => delivery(i + 1))
            yield* store.enqueue([
              ...rows,
              delivery(50, otherRun.workflow_run_id),
              delivery(51, run.workflow_run_id, second.id)
            ])
            // Only this organization's rows are counted: a shared database holds other tests' deliveries too.
            const ours = (claimed: ReadonlyArray<{ readonly delivery: WebhookDelivery }>) =>
              claimed.map((c) => c.delivery.id).filter((id) => id.includes(suffix))
            const claims = yield* Effect.all(
              Array.from({ length: 6 }, () => store.claimDue(claim(at(12), 4))),
              { concurrency: "unbounded" }
            )
            const claimedIds = claims.flatMap(ours)
            expect(new Set(claimedIds).size).toBe(claimedIds.length)
            expect(new Set(claimedIds)).toEqual(new Set(rows.map((r) => r.id)))
            // each claim counted its attempt and moved the delivery to the back-off after it (30 s)
            const firstClaim = claims.flat().find((c) => c.delivery.id === rows[0]!.id)!
            expect(firstClaim.delivery).toMatchObject({ attempts: 1, next_attempt_at: at(42) })
            expect(ours(yield* store.claimDue(claim(at(40), 100)))).toEqual([])
            // an attempt never recorded: the delivery is due again after its back-off, its next attempt counted
            const retaken = yield* store.claimDue(claim(at(100), 100))
            // rows, the other run's delivery; not the one to the disabled endpoint
            expect(ours(retaken)).toHaveLength(13)
            expect(retaken.find((c) => c.delivery.id === rows[0]!.id)?.endpoint).toEqual(first)
            expect(retaken.find((c) => c.delivery.id === rows[0]!.id)?.delivery).toMatchObject({
              attempts: 2,
              next_attempt_at: at(160)
            })

            // a late answer to the first attempt does not overwrite the second
            yield* store.recordAttempt(rows[0]!.id, {
              attempts: 1,
              status: "failed",
              next_attempt_at: null,
              last_status_code: 500,
              last_error: "http_status",
              delivered_at: null
            })
            yield* store.recordAttempt(rows[0]!.id, {
              attempts: 2,
              status: "delivered",
              next_attempt_at: null,
              last_status_code: 204,
              last_error: null,
              delivered_at: at(101)
            })
            const log = yield* store.listDeliveries(org.id, first.id, page(1, 100))
            expect(log.total_count).toBe(13)
            expect(log.items[0]?.id).toBe(delivery(50).id)
            expect(log.items.find((d) => d.id === rows[0]!.id)).toEqual({
              ...rows[0],
              attempts: 2,
              status: "delivered",
              next_attempt_at: null,
              last_status_code: 204,
              delivered_at: at(101)
            })
            expect((yield* store.listDeliveries(other.id, first.id, page(1))).total_count).toBe(0)
            expect(ours(yield* store.claimDue(claim(at(1000), 100)))).not.toContain(rows[0]!.id)

            expect(yield* store.purgeRun(other.id, run.workflow_run_id)).toBe(0)
            expect(yield* store.purgeRun(org.id, run.workflow_run_id)).toBe(13)
            expect((yield* store.listDeliveries(org.id, first.id, page(1))).items.map((d) => d.id)).toEqual([
              delivery(50).id
            ])
            expect(yield* store.removeEndpoint(other.id, first.id)).toBe(false)
            expect(yield* store.removeEndpoint(org.id, first.id)).toBe(true)
            expect(Option.isNone(yield* store.findEndpoint(org.id, first.id))).toBe(true)
            expect((yield* store.listDeliveries(org.id, first.id, page(1))).total_count).toBe(0)
          })
      )

      it.effect(
        "claims within bounds per endpoint and organization, passes over the skipped, and fails a delivery whose attempts are spent",
        () =>
          Effect.gen(function* () {
            const store = yield* WebhookStore
            const runs = yield* RunStore
            const suffix = yield* Fixtures.unique()
            const org = yield* Fixtures.organization()
            const other = yield* Fixtures.organization()
            const { agent } = yield* Fixtures.agent(org.id)
            const { agent: otherAgent } = yield* Fixtures.agent(other.id)
            const run = yield* runs.insert(Fixtures.newRun(org.id, agent.id), at(0))
            const otherRun = yield* runs.insert(Fixtures.newRun(other.id, otherAgent.id), at(0))
            const endpoint = (n: number, organizationId: typeof org.id) =>
              store.insertEndpoint({
                id: endpointIdFrom(`${suffix}${String(n).padStart(8, "1")}`),
                organization_id: organizationId,
                url: `https://example.com/${n}`,
                description: null,
                events: ["call.started"],
                secret: "whsec_c2VjcmV0",
                enabled: true,
                created_at: at(0)
              })
            const [one, two, theirs, spent] = [
              yield* endpoint(1, org.id),
              yield* endpoint(2, org.id),
              yield* endpoint(3, other.id),
              yield* endpoint(4, org.id)
            ]
            const delivery = (
              n: number,
              to: typeof one,
              attempts = 0,
              due = 20_000 + n
            ): WebhookDelivery => ({
              id: deliveryIdFrom(`${suffix}${String(n).padStart(12, "1")}`),
              organization_id: to.organization_id,
              endpoint_id: to.id,
              event_type: "call.started",
              run_id: to.organization_id === org.id ? run.workflow_run_id : otherRun.workflow_run_id,
              payload: { type: "call.started", timestamp: at(n).toISOString(), data: { n } },
              attempts,
              status: "pending",
              next_attempt_at: at(due),
              last_status_code: null,
              last_error: null,
              created_at: at(n),
              delivered_at: null
            })
            const d = [
              delivery(1, one),
              delivery(2, one),
              delivery(3, one),
              delivery(4, two),
              delivery(5, two),
              delivery(6, two),
              delivery(7, theirs),
              delivery(8, theirs)
            ]
            yield* store.enqueue([...d, delivery(9, spent, 4, 30_000)])
            const ours = (claimed: ReadonlyArray<{ readonly delivery: WebhookDelivery }>) =>
              claimed.map((c) => c.delivery.id).filter((id) => id.includes(suffix))
            const ids = (...ns: Array<number>) => ns.map((n) => d[n - 1]!.id)

            // two per endpoint, three per organization, the oldest due first
            expect(
              ours(yield* store.claimDue(claim(at(20_010), 100, { perEndpoint: 2, perOrganization: 3 })))
            ).toEqual(ids(1, 2, 4, 7, 8))
            // endpoints and organizations at their bound are passed over
            expect(
              ours(
                yield* store.claimDue(
                  claim(at(20_010), 100, { skipEndpoints: [one.id], skipOrganizations: [other.id] })
                )
              )
            ).toEqual(ids(5, 6))
            expect(ours(yield* store.claimDue(claim(at(20_010), 100)))).toEqual(ids(3))

            // the fifth attempt is claimed; once its back-off passes unrecorded, the claim fails it
            const fifth = yield* store.claimDue(claim(at(30_000), 100, { skipOrganizations: [other.id] }))
            expect(fifth.find((c) => c.delivery.endpoint_id === spent.id)?.delivery).toMatchObject({
              attempts: 5,
              next_attempt_at: at(30_480)
            })
            const after = yield* store.claimDue(claim(at(30_480), 100, { skipOrganizations: [other.id] }))
            expect(after.map((c) => c.delivery.endpoint_id)).not.toContain(spent.id)
            const [failed] = (yield* store.listDeliveries(org.id, spent.id, page(1))).items
            expect(failed).toMatchObject({
              attempts: 5,
              status: "failed",
              next_attempt_at: null,
              last_status_code: null,
              last_error: "timeout"
            })
          })
      )
    })

    describe("knowledge-base search", () => {
      it.effect(
        "finds the organization's completed, active chunks by word, diacritics and case aside, at most a page",
        () =>
          Effect.gen(function* () {
            const documents = yield* DocumentStore
            const org = yield* Fixtures.organization()
            const other = yield* Fixtures.organization()
            const suffix = yield* Fixtures.unique()
            const stored = (
              organizationId: typeof org.id,
              name: string,
              texts: ReadonlyArray<string>,
              overrides = {}
            ) =>
              Effect.gen(function* () {
                const document = yield* documents.insert(
                  Fixtures.newDocument(organizationId, `${suffix}-${name}`, {
                    processing_status: "completed",
                    ...overrides
                  }),
                  at(texts.length)
                )
                yield* documents.replaceChunks(
                  organizationId,
                  document.id,
                  texts.map((text, index) => ({
                    document_id: document.id,
                    organization_id: organizationId,
                    index,
                    text
                  }))
                )
                return document
              })
            const turtles = yield* stored(org.id, "turtles", [
              "Żółw morski pływa powoli.",
              "Opening hours: Monday to Friday.",
              "ŻÓŁW, żółw i jeszcze raz żółw: the turtle page."
            ])
            yield* stored(org.id, "pending", ["żółw pending"], { processing_status: "pending" })
            yield* stored(org.id, "inactive", ["żółw inactive"], { is_active: false })
            yield* stored(other.id, "foreign", ["żółw of another organization"])
            const hits = yield* documents.search(org.id, ["zolw"], 10)
            // the chunk saying it three times ranks above the one saying it once; nothing else matches
            expect(hits.map((h) => [h.document.id, h.chunk.index, h.chunk.text])).toEqual([
              [turtles.id, 2, "ŻÓŁW, żółw i jeszcze raz żółw: the turtle page."],
              [turtles.id, 0, "Żółw morski pływa powoli."]
            ])
            expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score)
            expect(hits.every((h) => h.score > 0 && h.chunk.organization_id === org.id)).toBe(true)
            // any of the terms matches
            expect(
              (yield* documents.search(org.id, ["monday", "nothing"], 10)).map((h) => h.chunk.index)
            ).toEqual([1])
            expect(yield* documents.search(org.id, ["absent"], 10)).toEqual([])
            expect(yield* documents.search(org.id, [], 10)).toEqual([])

            // many matches: a page at most, ties to the newer document then the earlier chunk
            const many = yield* stored(
              org.id,
              "many",
              Array.from({ length: 30 }, (_, i) => `Faktura numer ${i} do zapłaty`)
            )
            const page = yield* documents.search(org.id, ["faktura"], 5)
            expect(page.map((h) => [h.document.id, h.chunk.index])).toEqual(
              [0, 1, 2, 3, 4].map((index) => [many.id, index])
            )
            expect((yield* documents.search(org.id, ["faktura"], 50)).length).toBe(30)
            // the removed document's chunks go with it
            yield* documents.remove(org.id, many.id)
            expect(yield* documents.search(org.id, ["faktura"], 5)).toEqual([])
          })
      )
    })

    describe("knowledge-base processing queue", () => {
      it.effect(
        "hands each unfinished document to exactly one of many simultaneous claims, oldest first",
        () =>
          Effect.gen(function* () {
            const documents = yield* DocumentStore
            const org = yield* Fixtures.organization()
            const suffix = yield* Fixtures.unique()
            // older than every other test's documents, so that these are claimed first
            const long = (seconds: number) => new Date(Date.UTC(2000, 0, 1) + seconds * 1000)
            const pending = yield* Effect.forEach([0, 1, 2, 3, 4], (i) =>
              documents.insert(Fixtures.newDocument(org.id, `${suffix}-${i}`), long(i))
            )
            // processing since long(10): stale only for a claim that says so
            const stuck = yield* documents.insert(
              Fixtures.newDocument(org.id, `${suffix}-stuck`, { processing_status: "processing" }),
              long(10)
            )
            yield* documents.insert(
              Fixtures.newDocument(org.id, `${suffix}-done`, { processing_status: "completed" }),
              long(-1)
            )
            const now = long(100)
            const claims = yield* Effect.all(
              Array.from({ length: 5 }, () => documents.claimNext(now, long(5))),
              { concurrency: "unbounded" }
            )
            const claimed = claims.map((c) => Option.getOrThrow(c))
            const byId = (a: number, b: number) => a - b
            expect(claimed.map((d) => d.id).sort(byId)).toEqual(pending.map((d) => d.id).sort(byId))
            expect(
              claimed.every(
                (d) => d.processing_status === "processing" && d.updated_at.getTime() === now.getTime()
              )
            ).toBe(true)
            // the stuck one is not stale before long(10) (another test's document may be claimed instead), and is
            // at long(10), before every other test's
            const next = yield* documents.claimNext(now, long(9))
            expect(Option.isSome(next) && next.value.id === stuck.id).toBe(false)
            const stale = yield* documents.claimNext(now, long(10))
            expect(Option.map(stale, (d) => d.id)).toEqual(Option.some(stuck.id))
          })
      )
    })

    describe("quotas", () => {
      it.effect(
        "let exactly as many simultaneous creations pass as the quota has room for, per organization",
        () =>
          Effect.gen(function* () {
            const webhooks = yield* WebhookStore
            const documents = yield* DocumentStore
            const org = yield* Fixtures.organization()
            const other = yield* Fixtures.organization()
            const suffix = yield* Fixtures.unique()
            const endpoint = (organization_id: typeof org.id, n: number) => ({
              id: endpointIdFrom(`${suffix}${String(n).padStart(8, "0")}`),
              organization_id,
              url: `https://example.com/${n}`,
              description: null,
              events: ["call.ended"] as const,
              secret: "whsec_c2VjcmV0",
              enabled: true,
              created_at: at(n)
            })
            expect(Option.isSome(yield* webhooks.insertEndpointWithin(endpoint(org.id, 0), 3))).toBe(true)
            const endpoints = yield* Effect.all(
              Array.from({ length: 10 }, (_, n) => webhooks.insertEndpointWithin(endpoint(org.id, n + 1), 3)),
              { concurrency: "unbounded" }
            )
            expect(endpoints.filter(Option.isSome)).toHaveLength(2)
            expect((yield* webhooks.listEndpoints(org.id, page(1))).total_count).toBe(3)
            // the other organization's count is its own
            expect(Option.isSome(yield* webhooks.insertEndpointWithin(endpoint(other.id, 20), 1))).toBe(true)
            expect(Option.isNone(yield* webhooks.insertEndpointWithin(endpoint(other.id, 21), 1))).toBe(true)

            const uploads = yield* Effect.all(
              Array.from({ length: 10 }, (_, n) =>
                documents.insertWithin(Fixtures.newDocument(org.id, `${suffix}-${n}`), at(n), 4)
              ),
              { concurrency: "unbounded" }
            )
            expect(uploads.filter(Option.isSome)).toHaveLength(4)
            expect((yield* documents.list(org.id, page(1))).total_count).toBe(4)
            expect((yield* documents.list(other.id, page(1))).total_count).toBe(0)
          })
      )
    })

    describe("transactions", () => {
      it.effect("undo a failed inner transaction only, like a savepoint, when the outer one catches it", () =>
        Effect.gen(function* () {
          const transactions = yield* Transactions
          const organizations = yield* OrganizationStore
          const org = yield* Fixtures.organization({ balance: 500 })
          yield* transactions.run(
            Effect.gen(function* () {
              yield* organizations.debit(org.id, MinorUnits.make(100))
              const inner = transactions.run(
                Effect.zipRight(
                  organizations.debit(org.id, MinorUnits.make(300)),
                  Effect.fail("inner" as const)
                )
              )
              expect(yield* Effect.flip(inner)).toBe("inner")
            })
          )
          expect(Option.getOrThrow(yield* organizations.find(org.id)).balance).toBe(400)
        })
      )

      it.effect("refuse balance changes that are not positive whole amounts", () =>
        Effect.gen(function* () {
          const organizations = yield* OrganizationStore
          const org = yield* Fixtures.organization({ balance: 500 })
          for (const amount of [0, -100, 1.5]) {
            const debit = yield* Effect.exit(organizations.debit(org.id, amount as MinorUnitsType))
            const credit = yield* Effect.exit(organizations.credit(org.id, amount as MinorUnitsType))
            expect(debit._tag).toBe("Failure")
            expect(credit._tag).toBe("Failure")
          }
          expect(Option.getOrThrow(yield* organizations.find(org.id)).balance).toBe(500)
        })
      )

      it.effect("undo every write of a failed transaction and keep those of a successful one", () =>
        Effect.gen(function* () {
          const transactions = yield* Transactions
          const organizations = yield* OrganizationStore
          const agents = yield* AgentStore
          const org = yield* Fixtures.organization({ balance: 300 })
          const attempt = transactions.run(
            Effect.gen(function* () {
              yield* organizations.debit(org.id, MinorUnits.make(200))
              const { agent } = yield* Fixtures.agent(org.id, "doomed")
              yield* Effect.fail("boom" as const)
              return agent
            })
          )
          expect(yield* Effect.flip(attempt)).toBe("boom")
          expect(Option.getOrThrow(yield* organizations.find(org.id)).balance).toBe(300)
          expect((yield* agents.list(org.id, {}, page(1))).total_count).toBe(0)
          yield* transactions.run(organizations.debit(org.id, MinorUnits.make(200)))
          expect(Option.getOrThrow(yield* organizations.find(org.id)).balance).toBe(100)
        })
      )
    })

    describe("ids", () => {
      /** Makes one record of a kind for an organization and answers the integer id its tenant sees. */
      type Maker = (organizationId: OrganizationId) => Effect.Effect<number, unknown, Stores>
      const makers: ReadonlyArray<readonly [kind: string, make: Maker]> = [
        ["organization", () => Effect.map(Fixtures.organization(), (org) => org.id)],
        ["agent", (id) => Effect.map(Fixtures.agent(id), ({ agent }) => agent.id)],
        ["agent version", (id) => Effect.map(Fixtures.agent(id), ({ definition }) => definition.id)],
        ["run", (id) => Effect.map(runOf(id), (run) => run.workflow_run_id)],
        [
          "document",
          (id) =>
            Effect.flatMap(Fixtures.unique(), (suffix) =>
              Effect.flatMap(DocumentStore, (documents) =>
                documents.insert(Fixtures.newDocument(id, suffix), at(0))
              )
            ).pipe(Effect.map((document) => document.id))
        ],
        [
          "improvement",
          (id) =>
            Effect.gen(function* () {
              const { agent } = yield* Fixtures.agent(id)
              const improvement = yield* (yield* ImprovementStore).insert(
                {
                  organization_id: id,
                  agent_id: agent.id,
                  text: "Be brief.",
                  rationale: null,
                  source_run_id: null
                },
                at(0)
              )
              return improvement.id
            })
        ],
        [
          "tool",
          (id) =>
            Effect.gen(function* () {
              const tool = yield* (yield* ToolStore).insert(
                {
                  tool_uuid: `tool-${yield* Fixtures.unique()}`,
                  organization_id: id,
                  name: "End call",
                  description: null,
                  category: "end_call",
                  icon: "globe",
                  icon_color: "#3B82F6",
                  status: "active",
                  definition: { schema_version: 1, type: "end_call", config: { messageType: "none" } },
                  created_by: null
                },
                at(0)
              )
              return tool.id
            })
        ],
        [
          "number request",
          (id) =>
            Effect.flatMap(PhoneNumberStore, (numbers) =>
              numbers.insertRequest(
                { organization_id: id, end_user_id: 1, consent: true, note: "", number_type: null },
                at(0)
              )
            ).pipe(Effect.map((request) => request.id))
        ],
        [
          "usage line",
          (id) =>
            Effect.gen(function* () {
              const run = yield* runOf(id)
              const line = yield* (yield* UsageStore).record({
                organization_id: id,
                run_id: run.workflow_run_id,
                agent_id: run.workflow_id,
                mode: "phone",
                duration_seconds: 1,
                cost: MinorUnits.make(2),
                currency: "PLN",
                recorded_at: at(1)
              })
              return line.id
            })
        ],
        [
          "campaign",
          (id) =>
            Effect.gen(function* () {
              const { agent } = yield* Fixtures.agent(id)
              const campaign = yield* (yield* CampaignStore).insert(Fixtures.newCampaign(id, agent.id), at(0))
              return campaign.id
            })
        ]
      ]
      const busy = 12

      for (const [kind, make] of makers) {
        it.effect(`${kind} ids tell one organization nothing of how many another created`, () =>
          Effect.gen(function* () {
            const a = yield* Fixtures.organization()
            const b = yield* Fixtures.organization()
            const before = yield* make(b.id)
            const others = yield* Effect.all(Array.from({ length: busy }, () => make(a.id)))
            const after = yield* make(b.id)
            for (const id of [before, after, ...others]) {
              expect(Number.isSafeInteger(id) && id > 0, `${kind} id ${id}`).toBe(true)
            }
            // counted from one sequence shared by all organizations, B's next id would be `busy + 1` further on
            expect(after - before, `${kind}: B's ids ${before} then ${after}`).not.toBe(busy + 1)
          })
        )
      }
    })
  })
