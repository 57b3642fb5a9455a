import { SqlClient } from "@effect/sql"
import { OrganizationId } from "@voice-agent-platform/core/organizations/Organization.js"
import type { AgentId } from "@voice-agent-platform/core/agents/AgentIds.js"
import {
  finalStatuses,
  IntegrationDelivery,
  newRunDefaults,
  Run,
  SmsMessage
} from "@voice-agent-platform/core/runs/Run.js"
import * as EncodedPage from "@voice-agent-platform/core/pagination/EncodedPage.js"
import * as Page from "@voice-agent-platform/core/pagination/Page.js"
import type { PageRequest } from "@voice-agent-platform/core/pagination/Page.js"
import type { NewRun, RunFilter, RunPatch } from "@voice-agent-platform/core/runs/RunStore.js"
import { RunStore } from "@voice-agent-platform/core/runs/RunStore.js"
import { Effect, Layer, Option, Schema } from "effect"
import * as Batches from "../storage/Batches.js"
import * as Paging from "../storage/Paging.js"
import * as Rows from "../storage/Rows.js"
import * as PgRunLists from "./PgRunLists.js"
import { StoredLogs } from "./RunLogRows.js"
import {
  encodedOf,
  listingArray,
  listingJoins,
  listingsOf,
  pageArray,
  pageEncoded,
  pageEncodedJoins,
  pageJoins,
  summariesOf
} from "./RunSummaryRows.js"

/**
 * A run as stored. Logs, SMS and integration deliveries are jsonb, where their instants are ISO strings:
 * they are read back as Dates.
 */
export const RunRow = Schema.Struct({
  ...Run.fields,
  // a log's plain lines read without the schema's walk (`RunLogRows`): most writes read the run back
  logs: StoredLogs,
  sms: Schema.Array(Schema.Struct({ ...SmsMessage.fields, sent_at: Schema.Date })),
  integration_deliveries: Schema.Array(
    Schema.Struct({ ...IntegrationDelivery.fields, delivered_at: Schema.Date })
  )
})

const OrganizationRow = Schema.Struct({ organization_id: OrganizationId })

/** The run fields held in jsonb columns. */
const jsonFields = [
  "initial_context",
  "gathered_context",
  "logs",
  "sms",
  "integration_deliveries",
  "files"
] as const

/**
 * Column values of run fields: jsonb fields as JSON text (a parameter the column's type reads as jsonb;
 * Dates inside become ISO strings), the others as they are.
 */
const columns = (fields: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(fields).map(([key, value]) => [
      key,
      (jsonFields as ReadonlyArray<string>).includes(key) ? JSON.stringify(value) : value
    ])
  )

/** The columns of a new run: its fields, the store's defaults (`newRunDefaults`) and its creation time. */
const newRow = (run: NewRun, now: Date) => columns({ ...run, ...newRunDefaults, created_at: now })

// Word for word the predicates of the partial indexes `runs_ended_with_files`, `runs_live` and
// `runs_idle_chats`.
const endedWithFiles =
  "ended_at IS NOT NULL AND (files ->> 'recording' IS NOT NULL OR files ->> 'transcript' IS NOT NULL)"
const live = "status IN ('queued', 'ringing', 'in_progress')"
/** A run not final (`isFinal`): its events may still be written. */
export const notFinal = `status NOT IN (${finalStatuses.map((status) => `'${status}'`).join(", ")})`
const chatInProgress = "mode = 'chat' AND status IN ('initialized', 'in_progress')"

/**
 * Chats in progress idle since before `lastActiveBefore`, longest idle first: the partial index
 * `runs_idle_chats` in its order. Exported for the test that checks the plan uses the index.
 */
export const idleChatsStatement = (sql: SqlClient.SqlClient, lastActiveBefore: Date, limit: number) => sql`
  SELECT * FROM runs WHERE ${sql.literal(chatInProgress)} AND last_activity_at < ${lastActiveBefore}
  ORDER BY last_activity_at, workflow_run_id LIMIT ${limit}`

/**
 * Runs in PostgreSQL.
 *
 * `update` is one UPDATE. Its `files` are merged into the stored ones (`files || patch`, keys set to null
 * in the patch left out) rather than replacing them: the transcript and the recording are saved by two
 * different call events, each writing `{ ...run.files, <its key> }` from the run it read, and two
 * processes may handle those events at once; with a plain replacement the second write would put back
 * the null the first one had just replaced. A file key, once set, is never cleared by an update (nothing
 * clears one: retention removes files and keeps their keys).
 */
export const layer: Layer.Layer<RunStore, never, SqlClient.SqlClient> = Layer.effect(
  RunStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const one = Rows.first(RunRow)
    const all = Rows.all(RunRow)
    /**
     * One page of an agent's list: read as `array` (joined by `joins`), its items mapped by `decode` (by
     * hand, not with the schema: `RunSummaryRows`) and made a page by `make`.
     */
    const agentPage = <Raw, Items, P>(
      organizationId: OrganizationId,
      agentId: AgentId,
      filter: RunFilter,
      page: PageRequest,
      array: string,
      joins: string,
      decode: (items: Raw | null) => Items,
      make: (items: Items, total: number, page: PageRequest) => P
    ): Effect.Effect<P> =>
      Effect.map(
        PgRunLists.pagedList(
          sql,
          {
            where: PgRunLists.runsWhere(sql, organizationId, { ...filter, agent_id: agentId }),
            // Without a filter the total is the agent's kept count (one row); with one, it is counted.
            keptTotal: PgRunLists.onlyByAgent(filter)
              ? PgRunLists.agentTotal(sql, organizationId, agentId)
              : null,
            array,
            joins,
            decode
          },
          page
        ),
        ({ items, total }) => make(items, total, page)
      )
    /** How many runs the agent has, as the database keeps it (`run_counts`, version 2 of the schema). */
    const agentTotal = (organizationId: OrganizationId, agentId: AgentId) =>
      Rows.single(Paging.Count)(sql`SELECT ${PgRunLists.agentTotal(sql, organizationId, agentId)} AS total`)

    const update = (patch: RunPatch) => {
      const { files, ...others } = patch
      const sets = [
        ...(Object.keys(others).length > 0 ? [sql`${sql.update(columns(others))}`] : []),
        ...(files !== undefined
          ? [sql`files = runs.files || jsonb_strip_nulls(${JSON.stringify(files)}::jsonb)`]
          : [])
      ]
      return sets.length === 0 ? null : sql.csv(sets)
    }

    return {
      insert: (run, now) =>
        Rows.single(RunRow)(sql`
          INSERT INTO runs ${sql.insert(newRow(run, now))} RETURNING *`),
      insertMany: (many, now) =>
        many.length === 0
          ? Effect.succeed([])
          : all(sql`
              INSERT INTO runs ${sql.insert(many.map((run) => newRow(run, now)))} RETURNING *`),
      find: (organizationId, id) =>
        one(sql`SELECT * FROM runs WHERE organization_id = ${organizationId} AND workflow_run_id = ${id}`),
      findForUpdate: (organizationId, id) =>
        one(sql`
          SELECT * FROM runs WHERE organization_id = ${organizationId} AND workflow_run_id = ${id} FOR UPDATE`),
      // One statement for the batch; its rows are locked in id order (the sort runs before the lock), so
      // transactions holding overlapping sets wait for each other and never deadlock.
      findManyForUpdate: (keys) =>
        keys.length === 0
          ? Effect.succeed([])
          : all(sql`
              SELECT * FROM runs WHERE (organization_id, workflow_run_id) IN (
                SELECT k.organization_id, k.workflow_run_id FROM ${Batches.recordset(
                  sql,
                  keys.map(({ organization_id, workflow_run_id }) => ({ organization_id, workflow_run_id })),
                  "k",
                  "organization_id bigint, workflow_run_id bigint"
                )})
              ORDER BY workflow_run_id FOR UPDATE`),
      endMany: (ends) =>
        ends.length === 0
          ? Effect.succeed([])
          : all(sql`
              UPDATE runs r SET status = e.status, duration_seconds = e.duration_seconds, cost = e.cost,
                model_cost = e.model_cost, analysis_status = e.analysis_status, ended_at = e.ended_at,
                channel_reservation_id = NULL
              FROM ${Batches.recordset(
                sql,
                ends.map((end) => ({
                  organization_id: end.organization_id,
                  workflow_run_id: end.workflow_run_id,
                  status: end.status,
                  duration_seconds: end.duration_seconds,
                  cost: end.cost,
                  model_cost: end.model_cost,
                  analysis_status: end.analysis_status,
                  ended_at: end.ended_at
                })),
                "e",
                "organization_id bigint, workflow_run_id bigint, status text, duration_seconds integer, " +
                  "cost bigint, model_cost bigint, analysis_status text, ended_at timestamptz"
              )}
              WHERE r.organization_id = e.organization_id AND r.workflow_run_id = e.workflow_run_id
              RETURNING r.*`),
      findAnyOrganization: (id) => one(sql`SELECT * FROM runs WHERE workflow_run_id = ${id}`),
      recordCarrierCall: (id, callId) =>
        sql`UPDATE runs SET carrier_call_id = ${callId}
          WHERE workflow_run_id = ${id} AND carrier_call_id IS NULL`.pipe(Effect.orDie, Effect.asVoid),
      carrierCallOf: (id) =>
        sql<{ carrier_call_id: string | null }>`
          SELECT carrier_call_id FROM runs WHERE workflow_run_id = ${id}`.pipe(
          Effect.orDie,
          Effect.map((rows) => Option.fromNullable(rows[0]?.carrier_call_id))
        ),
      claimMedia: (id, callId, now) =>
        sql`
          UPDATE runs SET media_connected_at = ${now}
          WHERE workflow_run_id = ${id} AND carrier_call_id = ${callId} AND media_connected_at IS NULL
            AND mode = 'phone' AND ${sql.unsafe(live)}
          RETURNING workflow_run_id`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.length === 1)
        ),
      list: (organizationId, agentId, filter, page) =>
        agentPage(organizationId, agentId, filter, page, pageArray, pageJoins, summariesOf, Page.make),
      listEncoded: (organizationId, agentId, filter, page) =>
        agentPage(
          organizationId,
          agentId,
          filter,
          page,
          pageEncoded,
          pageEncodedJoins,
          encodedOf,
          EncodedPage.make
        ),
      listAcrossAgents: (organizationId, filter, page) =>
        Effect.map(
          PgRunLists.pagedList(
            sql,
            {
              where: PgRunLists.runsWhere(sql, organizationId, filter),
              keptTotal: !PgRunLists.onlyByAgent(filter)
                ? null
                : filter.agent_id !== undefined
                  ? PgRunLists.agentTotal(sql, organizationId, filter.agent_id)
                  : PgRunLists.organizationTotal(sql, organizationId),
              array: listingArray,
              joins: listingJoins,
              decode: listingsOf
            },
            page
          ),
          ({ items, total }) => Page.make(items, total, page)
        ),
      update: (organizationId, id, patch) => {
        const sets = update(patch)
        return sets === null
          ? one(sql`SELECT * FROM runs WHERE organization_id = ${organizationId} AND workflow_run_id = ${id}`)
          : one(sql`
              UPDATE runs SET ${sets}
              WHERE organization_id = ${organizationId} AND workflow_run_id = ${id} RETURNING *`)
      },
      // One statement: the row is locked and its status checked again once it is, so a call's end that
      // held the run first leaves nothing to append to.
      appendLogWhileLive: (organizationId, id, entry) =>
        one(sql`
          UPDATE runs SET logs = runs.logs || ${JSON.stringify([entry])}::jsonb
          WHERE organization_id = ${organizationId} AND workflow_run_id = ${id} AND ${sql.unsafe(notFinal)}
          RETURNING *`),
      // One statement: concurrent requests of a run each add to the row as it is when they get its lock.
      addModelUsage: (organizationId, id, usage, lastActivityAt) =>
        one(sql`
          UPDATE runs SET model_prompt_tokens = model_prompt_tokens + ${usage.prompt_tokens},
            model_completion_tokens = model_completion_tokens + ${usage.completion_tokens}
            ${lastActivityAt === undefined ? sql`` : sql`, last_activity_at = ${lastActivityAt}`}
          WHERE organization_id = ${organizationId} AND workflow_run_id = ${id} RETURNING *`),
      idleChats: (lastActiveBefore, limit) => all(idleChatsStatement(sql, lastActiveBefore, limit)),
      // compare-and-set on the run's row: a turn held by another until after `now` stays theirs
      takeTurn: (organizationId, id, holder, until, now) =>
        one(sql`
          UPDATE runs SET turn_holder = ${holder}, turn_until = ${until}
          WHERE organization_id = ${organizationId} AND workflow_run_id = ${id}
            AND (turn_holder IS NULL OR turn_holder = ${holder} OR turn_until <= ${now})
          RETURNING *`),
      releaseTurn: (organizationId, id, holder) =>
        sql`
          UPDATE runs SET turn_holder = NULL, turn_until = NULL
          WHERE organization_id = ${organizationId} AND workflow_run_id = ${id} AND turn_holder = ${holder}`.pipe(
          Effect.orDie,
          Effect.asVoid
        ),
      countByAgent: (organizationId, agentId) =>
        Effect.map(agentTotal(organizationId, agentId), (row) => row.total),
      remove: (organizationId, id) =>
        one(sql`
          DELETE FROM runs WHERE organization_id = ${organizationId} AND workflow_run_id = ${id} RETURNING *`),
      // One index probe per organization (a loose index scan), however many runs each has.
      organizationsWithFiles: Rows.all(OrganizationRow)(
        sql`
        WITH RECURSIVE found AS (
          (SELECT organization_id FROM runs WHERE ${sql.literal(endedWithFiles)}
            ORDER BY organization_id LIMIT 1)
          UNION ALL
          SELECT (
            SELECT r.organization_id FROM runs r
            WHERE ${sql.literal(endedWithFiles)} AND r.organization_id > found.organization_id
            ORDER BY r.organization_id LIMIT 1
          ) FROM found WHERE found.organization_id IS NOT NULL
        )
        SELECT organization_id FROM found WHERE organization_id IS NOT NULL`
      ).pipe(Effect.map((rows) => rows.map((row) => row.organization_id))),
      endedWithFiles: (organizationId, endedBy, after, limit) =>
        all(sql`
          SELECT * FROM runs
          WHERE ${sql.and([
            sql`organization_id = ${organizationId}`,
            sql.literal(endedWithFiles),
            sql`ended_at <= ${endedBy}`,
            ...(after === null
              ? []
              : [sql`(ended_at, workflow_run_id) > (${after.ended_at}, ${after.workflow_run_id})`])
          ])}
          ORDER BY ended_at, workflow_run_id LIMIT ${limit}`),
      liveCreatedBy: (createdBy, limit) =>
        all(sql`
          SELECT * FROM runs WHERE ${sql.literal(live)} AND mode <> 'chat' AND created_at <= ${createdBy}
          ORDER BY created_at, workflow_run_id LIMIT ${limit}`)
    }
  })
)
