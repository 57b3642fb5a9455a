import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import * as Migrator from "@effect/sql/Migrator"
import { AgentStore, RunId, RunStore } from "@voice-agent-platform/core"
import { Effect, Layer, Option, Schema } from "effect"
import * as Migrations from "../../src/migrations/Migrations.js"
import * as PgStorage from "../../src/storage/PgStorage.js"
import {
  layerFreshDatabase,
  layerSecretBox,
  serverReachable,
  warnUnreachable
} from "../../testing/TestDatabase.js"

const reachable = await serverReachable()
if (!reachable) warnUnreachable("the migration tests")

const Applied = Schema.Struct({ migration_id: Schema.Number, name: Schema.String })
const Total = Schema.Struct({ total: Schema.Number })

describe.skipIf(!reachable)("migrations (PostgreSQL)", () => {
  it.live("apply every version once when several servers start at the same time", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const runs = yield* Effect.all(
        Array.from({ length: 4 }, () => Migrations.run),
        { concurrency: "unbounded" }
      )
      // one run applied both versions, the others found nothing to do
      expect(runs.map((applied) => applied.length).sort()).toEqual([
        0,
        0,
        0,
        Object.keys(Migrations.migrations).length
      ])
      const applied = Schema.decodeUnknownSync(Schema.Array(Applied))(
        yield* sql`SELECT migration_id, name FROM schema_migrations ORDER BY migration_id`
      )
      expect(applied).toEqual([
        { migration_id: 1, name: "initial" },
        { migration_id: 2, name: "run_counts" },
        { migration_id: 3, name: "bounded_work" },
        { migration_id: 4, name: "tenancy" },
        { migration_id: 5, name: "tools" },
        { migration_id: 6, name: "campaigns" },
        { migration_id: 7, name: "lookup_notifications" },
        { migration_id: 8, name: "campaign_tallies" },
        { migration_id: 9, name: "fragment_marks" },
        { migration_id: 10, name: "analysis" },
        { migration_id: 11, name: "console" },
        { migration_id: 12, name: "prompt_charges" },
        { migration_id: 13, name: "media_sockets" }
      ])
      expect(yield* Migrations.run).toEqual([])
    }).pipe(Effect.provide(layerFreshDatabase))
  )

  it.live("version 2 counts the runs that version 1 already held", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      // a database that stopped at version 1
      yield* Migrator.make({})({
        loader: Migrator.fromRecord({ "0001_initial": Migrations.migrations["0001_initial"]! }),
        table: Migrations.migrationsTable
      })
      const [org] = yield* sql<{ id: number }>`
        INSERT INTO organizations (name, outbound_channels, balance, created_at)
        VALUES ('Before version 2', 10, 0, now()) RETURNING id`
      yield* sql`
        INSERT INTO runs (workflow_id, organization_id, mode, status, initial_context, gathered_context, currency,
          logs, sms, integration_deliveries, files, created_at)
        SELECT 7, ${org!.id}, 'chat', 'initialized', '{}', '{}', 'PLN', '[]', '[]', '[]', '{}', now()
        FROM generate_series(1, 3)`
      yield* Migrations.run
      const [counted] = Schema.decodeUnknownSync(Schema.Array(Total))(
        yield* sql`SELECT total FROM run_counts WHERE organization_id = ${org!.id} AND workflow_id = 7`
      )
      expect(counted).toEqual({ total: 3 })
    }).pipe(Effect.provide(layerFreshDatabase))
  )

  it.live(
    "version 3 links kept answers to their runs, erases those of deleted runs, indexes old chunks",
    () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        // a database that stopped at version 2
        yield* Migrator.make({})({
          loader: Migrator.fromRecord({
            "0001_initial": Migrations.migrations["0001_initial"]!,
            "0002_run_counts": Migrations.migrations["0002_run_counts"]!
          }),
          table: Migrations.migrationsTable
        })
        const [org] = yield* sql<{ id: number }>`
        INSERT INTO organizations (name, outbound_channels, balance, created_at)
        VALUES ('Before version 3', 10, 0, now()) RETURNING id`
        const [run] = yield* sql<{ workflow_run_id: number }>`
        INSERT INTO runs (workflow_id, organization_id, mode, status, initial_context, gathered_context, currency,
          logs, sms, integration_deliveries, files, created_at)
        VALUES (7, ${org!.id}, 'phone', 'completed', '{}', '{}', 'PLN', '[]', '[]', '[]', '{}', now())
        RETURNING workflow_run_id`
        const answer = (runId: number) =>
          JSON.stringify({ status: 200, body: { workflow_run_id: runId, phone_number: "+48500100200" } })
        const gone = run!.workflow_run_id + 1000
        for (const [key, runId] of [
          ["kept", run!.workflow_run_id],
          ["gone", gone]
        ] as const) {
          yield* sql`
          INSERT INTO idempotency_keys (organization_id, key, fingerprint, token, created_at, expires_at,
            lease_until, response)
          VALUES (${org!.id}, ${key}, 'fp', 't', now(), now() + interval '1 day', now(), ${answer(runId)}::json)`
        }
        const [document] = yield* sql<{ id: number }>`
        INSERT INTO documents (document_uuid, organization_id, filename, file_size_bytes, file_hash, mime_type,
          processing_status, total_chunks, custom_metadata, parser_metadata, blob_key, is_active, created_at,
          updated_at)
        VALUES (${crypto.randomUUID()}, ${org!.id}, 'a.txt', 1, 'h', 'text/plain', 'completed', 1, '{}', '{}',
          'k', true, now(), now())
        RETURNING id`
        yield* sql`
        INSERT INTO document_chunks (document_id, organization_id, "index", text)
        VALUES (${document!.id}, ${org!.id}, 0, 'Zażółć gęślą JAŹŃ')`

        yield* Migrations.run
        const keys = yield* sql<{
          key: string
          fingerprint: string
          run_id: number | null
          response: unknown
        }>`
        SELECT key, fingerprint, run_id, response FROM idempotency_keys
        WHERE organization_id = ${org!.id} ORDER BY key`
        expect(keys).toEqual([
          {
            key: "gone",
            fingerprint: "",
            run_id: null,
            response: {
              status: 404,
              body: {
                detail: `Run ${gone} was deleted; the answer kept for this Idempotency-Key was erased with it`
              }
            }
          },
          {
            key: "kept",
            fingerprint: "fp",
            run_id: run!.workflow_run_id,
            response: JSON.parse(answer(run!.workflow_run_id))
          }
        ])
        const chunks = yield* sql<{ search_text: string; found: boolean }>`
        SELECT search_text, search_vector @@ to_tsquery('simple', 'jazn') AS found
        FROM document_chunks WHERE document_id = ${document!.id}`
        expect(chunks).toEqual([{ search_text: "zazolc gesla jazn", found: true }])
      }).pipe(Effect.provide(layerFreshDatabase))
  )

  it.live("version 4 keeps the ids rows already have and draws new ones at random", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      // a database that stopped at version 2, with organizations numbered from its sequence
      yield* Migrator.make({})({
        loader: Migrator.fromRecord({
          "0001_initial": Migrations.migrations["0001_initial"]!,
          "0002_run_counts": Migrations.migrations["0002_run_counts"]!
        }),
        table: Migrations.migrationsTable
      })
      const insertOrganization = (name: string) =>
        Effect.map(
          sql<{ id: number }>`
            INSERT INTO organizations (name, outbound_channels, balance, created_at)
            VALUES (${name}, 10, 0, now()) RETURNING id`,
          (rows) => rows[0]!.id
        )
      const before = [yield* insertOrganization("one"), yield* insertOrganization("two")]
      expect(before[1]).toBe(before[0]! + 1)
      yield* Migrations.run
      const after = []
      for (let i = 0; i < 20; i++) after.push(yield* insertOrganization(`after ${i}`))
      const kept = yield* sql<{
        id: number
      }>`SELECT id FROM organizations WHERE name IN ('one', 'two') ORDER BY id`
      expect(kept.map((row) => row.id)).toEqual(before)
      for (const id of after) expect(Number.isSafeInteger(id) && id > 0).toBe(true)
      expect(new Set(after).size).toBe(20)
      // drawn from 2^53 numbers, twenty ids all below 2^40 would be a one in 10^76 chance
      expect(after.some((id) => id > 2 ** 40)).toBe(true)
    }).pipe(Effect.provide(layerFreshDatabase))
  )
  it.live("version 6 keeps one contact per number, fills the campaign's counts, draws contact ids", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      // a database that stopped at version 4
      yield* Migrator.make({})({
        loader: Migrator.fromRecord({
          "0001_initial": Migrations.migrations["0001_initial"]!,
          "0002_run_counts": Migrations.migrations["0002_run_counts"]!,
          "0003_bounded_work": Migrations.migrations["0003_bounded_work"]!,
          "0004_tenancy": Migrations.migrations["0004_tenancy"]!
        }),
        table: Migrations.migrationsTable
      })
      const [org] = yield* sql<{ id: number }>`
        INSERT INTO organizations (name, outbound_channels, balance, created_at)
        VALUES ('Before version 6', 10, 0, now()) RETURNING id`
      const [campaign] = yield* sql<{ id: number }>`
        INSERT INTO campaigns (organization_id, agent_id, name, status, max_attempts, retry_delay_seconds, created_at)
        VALUES (${org!.id}, 7, 'Old', 'paused', 2, 60, now()) RETURNING id`
      for (const [number, status, attempts] of [
        ["+48500100001", "completed", 1],
        ["+48500100002", "pending", 0],
        ["+48500100002", "failed", 2],
        ["+48500100003", "skipped", 0],
        ["+48500100004", "in_progress", 1]
      ] as const) {
        yield* sql`
          INSERT INTO campaign_contacts (campaign_id, organization_id, phone_number, initial_context, status,
            attempts, created_at)
          VALUES (${campaign!.id}, ${org!.id}, ${number}, '{}', ${status}, ${attempts}, now())`
      }
      yield* Migrations.run
      const [counts] = yield* sql<Record<string, number>>`
        SELECT pending_count, in_progress_count, completed_count, failed_count, skipped_count, attempts_count,
          max_concurrency, retry_on
        FROM campaigns WHERE id = ${campaign!.id}`
      expect(counts).toEqual({
        pending_count: 1,
        in_progress_count: 1,
        completed_count: 1,
        failed_count: 0,
        skipped_count: 1,
        attempts_count: 2,
        max_concurrency: 10,
        retry_on: ["busy", "no_answer", "failed"]
      })
      // a contact in progress before version 6 holds an expired lease: the dialers take it back
      const [stuck] = yield* sql<{ expired: boolean }>`
        SELECT lease_expires_at <= now() AS expired FROM campaign_contacts
        WHERE campaign_id = ${campaign!.id} AND status = 'in_progress'`
      expect(stuck).toEqual({ expired: true })
      const duplicate = yield* Effect.either(
        sql`
          INSERT INTO campaign_contacts (campaign_id, organization_id, phone_number, initial_context, status,
            attempts, created_at)
          VALUES (${campaign!.id}, ${org!.id}, '+48500100001', '{}', 'pending', 0, now())`
      )
      expect(duplicate._tag).toBe("Left")
      // contacts stored before keep their ids, which are their order; new ones are drawn, their order counted on
      const before = yield* sql<{ id: number; added_order: number }>`
        SELECT id, added_order FROM campaign_contacts WHERE campaign_id = ${campaign!.id} ORDER BY added_order`
      expect(before.map((c) => c.added_order)).toEqual(before.map((c) => c.id))
      const added = yield* sql<{ id: number; added_order: number }>`
        INSERT INTO campaign_contacts (campaign_id, organization_id, phone_number, initial_context, status,
          attempts, created_at)
        SELECT ${campaign!.id}, ${org!.id}, '+4850020' || lpad(n::text, 4, '0'), '{}', 'pending', 0, now()
        FROM generate_series(1, 5) AS n
        RETURNING id, added_order`
      const last = Math.max(...before.map((c) => c.id))
      // (the refused duplicate above took a number of the sequence too, as sequences do)
      const orders = added.map((c) => c.added_order).sort((a, b) => a - b)
      expect(orders[0]).toBeGreaterThan(last)
      expect(orders).toEqual([0, 1, 2, 3, 4].map((n) => orders[0]! + n))
      // five counted ids would be last+1..last+5; drawn ones land there about never
      expect(added.filter((c) => c.id > last && c.id <= last + 5)).toEqual([])
    }).pipe(Effect.provide(layerFreshDatabase))
  )

  it.live(
    "version 5 leaves older runs on their agent's current version, which gets the configuration's transfer numbers",
    () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        // a database that stopped at version 4
        yield* Migrator.make({})({
          loader: Migrator.fromRecord(
            Object.fromEntries(Object.entries(Migrations.migrations).filter(([name]) => name < "0005"))
          ),
          table: Migrations.migrationsTable
        })
        const [org] = yield* sql<{ id: number }>`
          INSERT INTO organizations (name, outbound_channels, balance, created_at)
          VALUES ('Before version 5', 10, 0, now()) RETURNING id`
        const version1 = JSON.stringify({
          system_prompt: "You help.",
          first_message: "Hello",
          language: "en",
          nodes: [],
          edges: [],
          gathered_fields: [],
          tools: []
        })
        const agentWith = (publicId: string, configuration: unknown) =>
          sql.withTransaction(
            Effect.gen(function* () {
              const [agent] = yield* sql<{ id: number }>`
                INSERT INTO agents (public_id, organization_id, name, status, current_definition_id,
                  template_context_variables, call_disposition_codes, workflow_configurations, created_at, updated_at)
                VALUES (${publicId}, ${org!.id}, 'Old', 'active', 0, '{}', '{}',
                  ${JSON.stringify(configuration)}::jsonb, now(), now())
                RETURNING id`
              const [definition] = yield* sql<{ id: number }>`
                INSERT INTO agent_definitions (agent_id, organization_id, version, workflow_definition, created_at)
                VALUES (${agent!.id}, ${org!.id}, 1, ${version1}::jsonb, now()) RETURNING id`
              yield* sql`UPDATE agents SET current_definition_id = ${definition!.id} WHERE id = ${agent!.id}`
              return agent!.id
            })
          )
        const withNumbers = yield* agentWith("agent_aaaaaaaaaaaaaaaaaaaa", {
          max_call_duration_seconds: 600,
          transfer_numbers: ["+48500000111"],
          voice: null
        })
        const withNone = yield* agentWith("agent_bbbbbbbbbbbbbbbbbbbb", {
          max_call_duration_seconds: 600,
          voice: null
        })
        const [run] = yield* sql<{ workflow_run_id: number }>`
          INSERT INTO runs (workflow_id, organization_id, mode, status, initial_context, gathered_context, currency,
            logs, sms, integration_deliveries, files, created_at)
          VALUES (${withNumbers}, ${org!.id}, 'chat', 'initialized', '{}', '{}', 'PLN', '[]', '[]', '[]',
            '{"recording": null, "transcript": null}', now())
          RETURNING workflow_run_id`

        yield* Migrations.run
        const numbers = yield* sql<{ agent_id: number; transfer_numbers: unknown }>`
          SELECT agent_id, workflow_definition -> 'transfer_numbers' AS transfer_numbers
          FROM agent_definitions WHERE organization_id = ${org!.id} ORDER BY agent_id`
        expect(new Map(numbers.map((row) => [Number(row.agent_id), row.transfer_numbers]))).toEqual(
          new Map<number, unknown>([
            [Number(withNumbers), ["+48500000111"]],
            [Number(withNone), []]
          ])
        )
        // the stores still read the run, with no version of its own, and the agent's current version
        yield* Effect.gen(function* () {
          const runs = yield* RunStore.RunStore
          const agents = yield* AgentStore.AgentStore
          const stored = Option.getOrThrow(
            yield* runs.findAnyOrganization(RunId.RunId.make(Number(run!.workflow_run_id)))
          )
          expect(stored.agent_definition_id).toBeNull()
          const agent = Option.getOrThrow(
            yield* agents.find(stored.organization_id, { _tag: "Number", id: stored.workflow_id })
          )
          const current = Option.getOrThrow(
            yield* agents.findDefinition(stored.organization_id, agent.current_definition_id)
          )
          expect(current.workflow_definition.transfer_numbers).toEqual(["+48500000111"])
        }).pipe(Effect.provide(PgStorage.layer.pipe(Layer.provide(layerSecretBox))))
      }).pipe(Effect.provide(layerFreshDatabase))
  )
})
