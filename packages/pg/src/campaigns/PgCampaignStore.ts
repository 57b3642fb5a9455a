import { SqlClient } from "@effect/sql"
import type {
  Campaign as CampaignType,
  ReportedContact
} from "@voice-agent-platform/core/campaigns/Campaign.js"
import { Contact } from "@voice-agent-platform/core/campaigns/Campaign.js"
import type { ContactPatch } from "@voice-agent-platform/core/campaigns/CampaignStore.js"
import { CampaignStore } from "@voice-agent-platform/core/campaigns/CampaignStore.js"
import { Array as Arr, Effect, Layer, Option, Schema } from "effect"
import { RunId } from "@voice-agent-platform/core/runs/RunId.js"
import * as Page from "@voice-agent-platform/core/pagination/Page.js"
import * as Paging from "../storage/Paging.js"
import * as QuotaGuard from "../storage/QuotaGuard.js"
import * as Rows from "../storage/Rows.js"
import * as AttemptEnds from "./PgAttemptEnds.js"
import { CampaignFromRow, talliedFromText, totalsColumns } from "./PgCampaignRows.js"

/** Contacts per INSERT statement: well below PostgreSQL's 65,535 parameters a statement. */
const contactsPerStatement = 1000

const Found = Schema.Struct({ id: Schema.Number })

/** A contact with the columns of its last run (null when it has none, or the run was deleted). */
const ReportRow = Schema.Struct({
  ...Contact.fields,
  run_status: Schema.NullOr(Schema.String),
  run_disposition: Schema.NullOr(Schema.String),
  run_duration_seconds: Schema.NullOr(Schema.Number),
  run_gathered_context: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
})

const reported = (row: typeof ReportRow.Type): ReportedContact => {
  const { run_status, run_disposition, run_duration_seconds, run_gathered_context, ...contact } = row
  return {
    contact,
    run:
      run_status === null
        ? null
        : {
            status: run_status,
            disposition: run_disposition,
            duration_seconds: run_duration_seconds,
            gathered_context: run_gathered_context ?? {}
          }
  }
}

/** A campaign's column values: `retry_on` as JSON text, which the jsonb column reads. */
const campaignColumns = (campaign: Omit<CampaignType, "id" | "created_at" | "totals">) => ({
  ...campaign,
  retry_on: JSON.stringify(campaign.retry_on)
})

/**
 * Campaigns and their contacts in PostgreSQL. Contacts are listed in the order they were added (by
 * `added_order`; their ids are random);
 * the report reads each contact's last run by a join, so a deleted run leaves nothing behind in it.
 */
export const layer: Layer.Layer<CampaignStore, never, SqlClient.SqlClient> = Layer.effect(
  CampaignStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const one = Rows.first(CampaignFromRow)
    const contactRow = Rows.first(Contact)
    const tallied = sql.literal(talliedFromText)
    const find = (organizationId: number, id: number) =>
      one(sql`SELECT c.*, t.* ${tallied} WHERE c.organization_id = ${organizationId} AND c.id = ${id}`)
    /**
     * Adds the campaign's tallies to its row and deletes them, in one statement; the caller holds the
     * row. Answers the campaign when there were any (tallies committed meanwhile stay for the next fold).
     */
    const fold = (organizationId: number, id: number) =>
      one(sql`
        WITH folded AS (
          DELETE FROM campaign_tallies WHERE organization_id = ${organizationId} AND campaign_id = ${id}
          RETURNING *),
        sums AS (SELECT count(*) AS n, ${sql.literal(
          totalsColumns.map(([, tally]) => `coalesce(sum(${tally}), 0) AS ${tally}`).join(", ")
        )} FROM folded)
        UPDATE campaigns c SET ${sql.literal(
          totalsColumns.map(([column, tally]) => `${column} = c.${column} + sums.${tally}`).join(", ")
        )}
        FROM sums WHERE c.organization_id = ${organizationId} AND c.id = ${id} AND sums.n > 0
        RETURNING c.*`)
    /** The campaign held by `lock` (a row-lock clause), its tallies folded into its row. */
    const findFolded = (organizationId: number, id: number, lock: string) =>
      Effect.flatMap(
        one(sql`
          SELECT * FROM campaigns WHERE organization_id = ${organizationId} AND id = ${id} ${sql.literal(lock)}`),
        (held) =>
          Option.isNone(held)
            ? Effect.succeed(held)
            : Effect.map(
                fold(organizationId, id),
                Option.orElse(() => held)
              )
      )
    const reportSelect = sql`
      SELECT k.*, r.status AS run_status, r.disposition AS run_disposition,
        r.duration_seconds AS run_duration_seconds, r.gathered_context AS run_gathered_context
      FROM campaign_contacts k
      LEFT JOIN runs r ON r.organization_id = k.organization_id AND r.workflow_run_id = k.last_run_id`
    const contactsWhere = (organizationId: number, id: number, status: string | undefined, alias = "") =>
      sql.and([
        sql`${sql(`${alias}organization_id`)} = ${organizationId}`,
        sql`${sql(`${alias}campaign_id`)} = ${id}`,
        ...(status !== undefined ? [sql`${sql(`${alias}status`)} = ${status}`] : [])
      ])
    const count = (organizationId: number, id: number, status: string | undefined) =>
      sql`
        SELECT count(*)::int8 AS total FROM campaign_contacts WHERE ${contactsWhere(organizationId, id, status)}`
    const insert = (campaign: Omit<CampaignType, "id" | "created_at" | "totals">, now: Date) =>
      Rows.single(CampaignFromRow)(sql`
        INSERT INTO campaigns ${sql.insert({ ...campaignColumns(campaign), created_at: now })} RETURNING *`)
    return {
      insert,
      find,
      ...AttemptEnds.make(sql),
      findForUpdate: (organizationId, id) => findFolded(organizationId, id, "FOR UPDATE"),
      // claims take turns with each other and with FOR UPDATE; calls' ends hold FOR KEY SHARE, which
      // conflicts with neither a claim's lock nor its fold (an UPDATE of no key column)
      findForClaim: (organizationId, id) => findFolded(organizationId, id, "FOR NO KEY UPDATE"),
      list: (organizationId, page) => {
        const { limit, offset } = Paging.window(page)
        return Paging.page(
          sql`
            SELECT count(*)::int8 AS total FROM campaigns WHERE organization_id = ${organizationId}`,
          Rows.all(CampaignFromRow)(sql`
            SELECT c.*, t.* ${tallied} WHERE c.organization_id = ${organizationId}
            ORDER BY c.created_at DESC, c.id DESC LIMIT ${limit} OFFSET ${offset}`),
          page
        )
      },
      update: (organizationId, id, patch) =>
        Object.keys(patch).length === 0
          ? find(organizationId, id)
          : Effect.zipRight(
              Rows.execute(sql`
                UPDATE campaigns SET ${sql.update(patch)}
                WHERE organization_id = ${organizationId} AND id = ${id}`),
              find(organizationId, id)
            ),
      tally: (organizationId, id, d) =>
        Rows.execute(sql`
          UPDATE campaigns SET
            pending_count = pending_count + ${d.counts.pending},
            in_progress_count = in_progress_count + ${d.counts.in_progress},
            completed_count = completed_count + ${d.counts.completed},
            failed_count = failed_count + ${d.counts.failed},
            skipped_count = skipped_count + ${d.counts.skipped},
            attempts_count = attempts_count + ${d.attempts},
            duration_seconds_total = duration_seconds_total + ${d.duration_seconds},
            cost_total = cost_total + ${d.cost}
          WHERE organization_id = ${organizationId} AND id = ${id}`),
      addContacts: (organizationId, id, contacts, now) =>
        sql
          .withTransaction(
            Effect.gen(function* () {
              // The campaign must be the organization's; the composite foreign key holds it to that too.
              const campaign = yield* Rows.first(Found)(sql`
                SELECT id FROM campaigns WHERE organization_id = ${organizationId} AND id = ${id}`)
              if (Option.isNone(campaign) || contacts.length === 0) return { added: [], duplicates: 0 }
              const rows = contacts.map((contact) => ({
                phone_number: contact.phone_number,
                initial_context: JSON.stringify(contact.initial_context),
                status: "pending",
                attempts: 0,
                campaign_id: id,
                organization_id: organizationId,
                created_at: now
              }))
              // All batches in one transaction: the contacts are added all together or not at all.
              const inserted = yield* Effect.forEach(Arr.chunksOf(rows, contactsPerStatement), (batch) =>
                Rows.all(Contact)(sql`
                  INSERT INTO campaign_contacts ${sql.insert(batch)}
                  ON CONFLICT (campaign_id, phone_number) DO NOTHING RETURNING *`)
              )
              // `added_order` follows the rows given; RETURNING promises no order, so sort by it.
              const added = inserted.flat().sort((a, b) => a.added_order - b.added_order)
              return { added, duplicates: contacts.length - added.length }
            })
          )
          .pipe(Effect.orDie),
      // the unique (campaign_id, phone_number) index answers it
      numbersAmong: (organizationId, id, phoneNumbers) =>
        phoneNumbers.length === 0
          ? Effect.succeed(new Set<string>())
          : Rows.all(Schema.Struct({ phone_number: Schema.String }))(
              sql`
              SELECT phone_number FROM campaign_contacts
              WHERE organization_id = ${organizationId} AND campaign_id = ${id}
                AND phone_number = ANY(${Array.from(phoneNumbers)})`
            ).pipe(Effect.map((rows) => new Set(rows.map((row) => row.phone_number)))),
      findContact: (organizationId, campaignId, id) =>
        contactRow(sql`
          SELECT * FROM campaign_contacts
          WHERE organization_id = ${organizationId} AND campaign_id = ${campaignId} AND id = ${id}`),
      findContactByRunForUpdate: (organizationId, runId) =>
        contactRow(sql`
          SELECT * FROM campaign_contacts
          WHERE organization_id = ${organizationId} AND last_run_id = ${runId} FOR UPDATE`),
      listContacts: (organizationId, id, filter, page) => {
        const { limit, offset } = Paging.window(page)
        return Paging.page(
          count(organizationId, id, filter.status),
          Rows.all(Contact)(sql`
            SELECT * FROM campaign_contacts WHERE ${contactsWhere(organizationId, id, filter.status)}
            ORDER BY added_order LIMIT ${limit} OFFSET ${offset}`),
          page
        )
      },
      updateContact: (organizationId, id, patch: ContactPatch) =>
        Object.keys(patch).length === 0
          ? contactRow(sql`
              SELECT * FROM campaign_contacts WHERE organization_id = ${organizationId} AND id = ${id}`)
          : contactRow(sql`
              UPDATE campaign_contacts SET ${sql.update(patch)}
              WHERE organization_id = ${organizationId} AND id = ${id} RETURNING *`),
      startAttempts: (organizationId, attempts, owner, leaseSeconds) =>
        attempts.length === 0
          ? Effect.void
          : Rows.execute(sql`
              UPDATE campaign_contacts k SET status = 'in_progress', attempts = k.attempts + 1,
                last_run_id = a.run_id, outcome = NULL, next_attempt_at = NULL, lease_owner = ${owner},
                lease_expires_at = now() + make_interval(secs => ${leaseSeconds})
              FROM unnest(${attempts.map((a) => a.id)}::int8[], ${attempts.map((a) => a.runId)}::int8[])
                AS a (id, run_id)
              WHERE k.organization_id = ${organizationId} AND k.id = a.id`),
      stillQueued: (organizationId, campaignId, runIds) =>
        runIds.length === 0
          ? Effect.succeed(new Set())
          : Rows.all(Schema.Struct({ workflow_run_id: RunId }))(
              sql`
              SELECT r.workflow_run_id FROM runs r JOIN campaigns c
                ON c.organization_id = r.organization_id AND c.id = r.campaign_id
              WHERE r.organization_id = ${organizationId} AND c.id = ${campaignId} AND c.status = 'running'
                AND r.status = 'queued' AND r.workflow_run_id = ANY(${runIds}::int8[])`
            ).pipe(Effect.map((rows) => new Set(rows.map((r) => r.workflow_run_id)))),
      removeContact: (organizationId, campaignId, id) =>
        contactRow(sql`
          DELETE FROM campaign_contacts
          WHERE organization_id = ${organizationId} AND campaign_id = ${campaignId} AND id = ${id} RETURNING *`),
      skipPending: (organizationId, id, outcome) =>
        Rows.all(Found)(
          sql`
          UPDATE campaign_contacts SET status = 'skipped', outcome = ${outcome}, next_attempt_at = NULL
          WHERE organization_id = ${organizationId} AND campaign_id = ${id} AND status = 'pending'
          RETURNING id`
        ).pipe(Effect.map((rows) => rows.length)),
      report: (organizationId, id, filter, page, totalCount) => {
        const { limit, offset } = Paging.window(page)
        return Rows.all(ReportRow)(
          sql`
          ${reportSelect} WHERE ${contactsWhere(organizationId, id, filter.status, "k.")}
          ORDER BY k.added_order LIMIT ${limit} OFFSET ${offset}`
        ).pipe(Effect.map((rows) => Page.make(rows.map(reported), totalCount, page)))
      },
      reportAfter: (organizationId, id, after, limit) =>
        Rows.all(ReportRow)(
          sql`
          ${reportSelect} WHERE ${contactsWhere(organizationId, id, undefined, "k.")} AND k.added_order > ${after ?? 0}
          ORDER BY k.added_order LIMIT ${limit}`
        ).pipe(Effect.map((rows) => rows.map(reported))),
      forgetRun: (organizationId, runId) =>
        Rows.execute(sql`
          UPDATE campaign_contacts SET last_run_id = NULL
          WHERE organization_id = ${organizationId} AND last_run_id = ${runId}`),
      running: (now, limit, perOrganization) =>
        Rows.all(CampaignFromRow)(
          sql`
          WITH visited AS (
            UPDATE campaigns v SET last_visited_at = ${now}
            FROM (
              SELECT id FROM (
                SELECT r.id, r.last_visited_at, row_number() OVER (
                  PARTITION BY r.organization_id ORDER BY r.last_visited_at NULLS FIRST, r.id) AS nth
                FROM campaigns r
                WHERE r.status = 'running' AND (
                  -- nothing left to dial, counting the calls' ends not yet folded
                  (SELECT r.pending_count + coalesce(sum(t.pending), 0) = 0
                      AND r.in_progress_count + coalesce(sum(t.in_progress), 0) = 0
                    FROM campaign_tallies t WHERE t.campaign_id = r.id)
                  OR EXISTS (
                    SELECT 1 FROM campaign_contacts k
                    WHERE k.campaign_id = r.id AND k.status = 'pending'
                      AND (k.next_attempt_at IS NULL OR k.next_attempt_at <= ${now})))
              ) ranked
              WHERE nth <= ${perOrganization}
              ORDER BY last_visited_at NULLS FIRST, id LIMIT ${limit}
            ) picked
            WHERE v.id = picked.id
            RETURNING v.id)
          SELECT c.*, t.* ${tallied} WHERE c.id IN (SELECT id FROM visited)`
        ).pipe(Effect.map((rows) => [...rows].sort((a, b) => a.id - b.id))),
      claimDue: (organizationId, id, now, limit) =>
        Rows.all(Contact)(sql`
          SELECT * FROM campaign_contacts
          WHERE organization_id = ${organizationId} AND campaign_id = ${id} AND status = 'pending'
            AND (next_attempt_at IS NULL OR next_attempt_at <= ${now})
          ORDER BY next_attempt_at NULLS FIRST, added_order LIMIT ${limit}
          FOR UPDATE SKIP LOCKED`),
      renewLeases: (owner, seconds) =>
        Rows.all(Found)(
          sql`
          UPDATE campaign_contacts SET lease_expires_at = now() + make_interval(secs => ${seconds})
          WHERE status = 'in_progress' AND lease_owner = ${owner} RETURNING id`
        ).pipe(Effect.map((rows) => rows.length)),
      expiredLeases: (limit) =>
        Rows.all(Contact)(sql`
          SELECT * FROM campaign_contacts
          WHERE status = 'in_progress' AND lease_expires_at <= now()
          ORDER BY lease_expires_at, added_order LIMIT ${limit}`),
      insertWithin: (campaign, now, limit) =>
        QuotaGuard.insertWithin(
          sql,
          "campaigns",
          campaign.organization_id,
          limit,
          insert(campaign, now),
          sql`status NOT IN ('completed', 'canceled')`
        )
    }
  })
)
