import { SqlClient } from "@effect/sql"
import { WebhookDelivery } from "@voice-agent-platform/core/webhooks/WebhookDelivery.js"
import * as WebhookRetry from "@voice-agent-platform/core/webhooks/WebhookRetry.js"
import { WebhookEndpoint } from "@voice-agent-platform/core/webhooks/WebhookEndpoint.js"
import type { ClaimedDelivery } from "@voice-agent-platform/core/webhooks/WebhookStore.js"
import { WebhookStore } from "@voice-agent-platform/core/webhooks/WebhookStore.js"
import { Effect, Layer, Schema } from "effect"
import * as SealedColumns from "../secrets/SealedColumns.js"
import { SecretBox } from "../secrets/SecretBox.js"
import * as Batches from "../storage/Batches.js"
import * as Paging from "../storage/Paging.js"
import * as QuotaGuard from "../storage/QuotaGuard.js"
import * as Rows from "../storage/Rows.js"

type Query = SealedColumns.SealedRows

/** A delivery joined with its endpoint, whose columns carry an `e_` prefix. */
/** Where an endpoint's signing secret is sealed: bound to its id. */
const secretAt = (endpointId: string) => SealedColumns.at(SealedColumns.of("webhook_endpoints"), endpointId)

const ClaimedRow = Schema.Struct({
  ...WebhookDelivery.fields,
  e_url: WebhookEndpoint.fields.url,
  e_description: WebhookEndpoint.fields.description,
  e_events: WebhookEndpoint.fields.events,
  e_secret: Schema.String,
  e_enabled: WebhookEndpoint.fields.enabled,
  e_created_at: WebhookEndpoint.fields.created_at
})

/** The columns of a delivery, in the order `enqueue` reads them from its JSON. */
const deliveryColumns = `id text, organization_id bigint, endpoint_id text, event_type text, run_id bigint,
  payload jsonb, attempts integer, status text, next_attempt_at timestamptz, last_status_code integer,
  last_error text, created_at timestamptz, delivered_at timestamptz`
const deliveryColumnNames = deliveryColumns
  .split(",")
  .map((column) => column.trim().split(" ")[0]!)
  .join(", ")

/** The back-off after each attempt, indexed by the attempts made before it (`WebhookRetry.delaySeconds`). */
const backOffSeconds = Array.from({ length: WebhookRetry.maxAttempts }, (_, i) =>
  WebhookRetry.delaySeconds(i + 1)
)

/**
 * Webhook endpoints and their deliveries in PostgreSQL. An endpoint's signing secret is sealed by the
 * SecretBox at rest.
 *
 * - `claimDue` is one statement: it locks the due deliveries it takes with `FOR UPDATE SKIP LOCKED`,
 *   counts their attempt and moves them to its back-off, so two concurrent claims (in any processes)
 *   never take the same delivery; a row another claim has just taken no longer passes
 *   `next_attempt_at <= now` when it is re-checked. The same statement settles `failed` the due
 *   deliveries whose attempts are spent (their last attempt was never recorded).
 * - `enqueue` inserts only deliveries whose endpoint still exists, taking a key-share lock on it: an
 *   endpoint being removed at that moment is either waited for (and its new deliveries dropped) or removed
 *   after the enqueuing transaction commits, its deliveries with it (ON DELETE CASCADE).
 */
export const layer: Layer.Layer<WebhookStore, never, SqlClient.SqlClient | SecretBox> = Layer.effect(
  WebhookStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const box = yield* SecretBox
    /** Endpoint rows with their secret opened, as the record schema reads them. */
    const opened = SealedColumns.opener(box, "webhook_endpoints", "text")
    const oneEndpoint = (query: Query) => Rows.first(WebhookEndpoint)(opened(query))
    const findEndpoint = (organizationId: number, id: string) =>
      oneEndpoint(
        sql`SELECT * FROM webhook_endpoints WHERE organization_id = ${organizationId} AND id = ${id}`
      )

    const insertEndpoint = (endpoint: WebhookEndpoint) =>
      Rows.single(WebhookEndpoint)(
        opened(sql`
          INSERT INTO webhook_endpoints ${sql.insert({
            ...endpoint,
            events: JSON.stringify(endpoint.events),
            secret: box.seal(endpoint.secret, secretAt(endpoint.id))
          })} RETURNING *`)
      )

    const webhookEndpointsList = Paging.list(
      sql,
      { table: "webhook_endpoints", orderBy: "created_at DESC, id DESC" },
      (rows) => Rows.all(WebhookEndpoint)(opened(rows))
    )
    const webhookDeliveriesList = Paging.list(
      sql,
      { table: "webhook_deliveries", orderBy: "created_at DESC, id DESC" },
      Rows.all(WebhookDelivery)
    )

    return {
      insertEndpoint,
      insertEndpointWithin: (endpoint, limit) =>
        QuotaGuard.insertWithin(
          sql,
          "webhook_endpoints",
          endpoint.organization_id,
          limit,
          insertEndpoint(endpoint)
        ),
      findEndpoint,
      listEndpoints: (organizationId, page) =>
        webhookEndpointsList(sql`organization_id = ${organizationId}`, page),
      updateEndpoint: (organizationId, id, patch) => {
        const { events, ...rest } = patch
        const columns = { ...rest, ...(events === undefined ? {} : { events: JSON.stringify(events) }) }
        return Object.keys(columns).length === 0
          ? findEndpoint(organizationId, id)
          : oneEndpoint(sql`
              UPDATE webhook_endpoints SET ${sql.update(columns)}
              WHERE organization_id = ${organizationId} AND id = ${id} RETURNING *`)
      },
      removeEndpoint: (organizationId, id) =>
        // The endpoint's deliveries go with it (ON DELETE CASCADE).
        sql`DELETE FROM webhook_endpoints WHERE organization_id = ${organizationId} AND id = ${id} RETURNING id`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.length > 0)
        ),
      subscribers: (organizationId, event) =>
        Rows.all(WebhookEndpoint)(
          opened(sql`
            SELECT * FROM webhook_endpoints
            WHERE organization_id = ${organizationId} AND enabled
              AND events @> ${JSON.stringify([event])}::jsonb
            ORDER BY created_at, id`)
        ),
      enqueue: (deliveries) =>
        deliveries.length === 0
          ? Effect.void
          : Rows.execute(sql`
              INSERT INTO webhook_deliveries (${sql.literal(deliveryColumnNames)})
              SELECT ${sql.literal(
                deliveryColumnNames
                  .split(", ")
                  .map((name) => `r.${name}`)
                  .join(", ")
              )}
              FROM ${Batches.recordset(sql, deliveries, "r", deliveryColumns)}
              JOIN webhook_endpoints e ON e.organization_id = r.organization_id AND e.id = r.endpoint_id
              FOR KEY SHARE OF e`),
      claimDue: ({ limit, now, perEndpoint, perOrganization, skipEndpoints, skipOrganizations }) =>
        limit <= 0
          ? Effect.succeed([])
          : Rows.all(ClaimedRow)(
              sql`
              WITH settled AS (
                UPDATE webhook_deliveries
                SET status = 'failed', next_attempt_at = NULL, last_status_code = NULL, last_error = 'timeout'
                WHERE id IN (
                  SELECT id FROM webhook_deliveries
                  WHERE status = 'pending' AND next_attempt_at <= ${now} AND attempts >= ${WebhookRetry.maxAttempts}
                  FOR UPDATE SKIP LOCKED)
              ), per_endpoint AS (
                SELECT d.id, d.organization_id, d.next_attempt_at AS due_at,
                  row_number() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at, d.id) AS endpoint_rank
                FROM webhook_deliveries d
                JOIN webhook_endpoints e ON e.organization_id = d.organization_id AND e.id = d.endpoint_id
                WHERE d.status = 'pending' AND d.next_attempt_at <= ${now}
                  AND d.attempts < ${WebhookRetry.maxAttempts} AND e.enabled
                  AND d.endpoint_id NOT IN (SELECT jsonb_array_elements_text(${JSON.stringify(skipEndpoints)}::jsonb))
                  AND d.organization_id NOT IN (
                    SELECT jsonb_array_elements_text(${JSON.stringify(skipOrganizations)}::jsonb)::bigint)
              ), ranked AS (
                SELECT id, due_at,
                  row_number() OVER (PARTITION BY organization_id ORDER BY due_at, id) AS organization_rank
                FROM per_endpoint WHERE endpoint_rank <= ${perEndpoint}
              ), due AS (
                SELECT d.id, ranked.due_at
                FROM webhook_deliveries d JOIN ranked ON ranked.id = d.id
                WHERE ranked.organization_rank <= ${perOrganization}
                  AND d.status = 'pending' AND d.next_attempt_at <= ${now}
                ORDER BY ranked.due_at, d.id
                LIMIT ${limit}
                FOR UPDATE OF d SKIP LOCKED
              ), taken AS (
                UPDATE webhook_deliveries d SET attempts = d.attempts + 1,
                  next_attempt_at = ${now}::timestamptz
                    + make_interval(secs => (${JSON.stringify(backOffSeconds)}::jsonb ->> d.attempts)::int)
                FROM due WHERE d.id = due.id
                RETURNING d.*, due.due_at
              )
              SELECT taken.*, e.url AS e_url, e.description AS e_description, e.events AS e_events,
                e.secret AS e_secret, e.enabled AS e_enabled, e.created_at AS e_created_at
              FROM taken
              JOIN webhook_endpoints e ON e.organization_id = taken.organization_id AND e.id = taken.endpoint_id
              ORDER BY taken.due_at, taken.id`
            ).pipe(
              Effect.map((rows) =>
                rows.map(
                  ({ e_url, e_description, e_events, e_secret, e_enabled, e_created_at, ...delivery }) =>
                    ({
                      delivery,
                      endpoint: {
                        id: delivery.endpoint_id,
                        organization_id: delivery.organization_id,
                        url: e_url,
                        description: e_description,
                        events: e_events,
                        secret: box.open(e_secret, secretAt(delivery.endpoint_id)),
                        enabled: e_enabled,
                        created_at: e_created_at
                      }
                    }) satisfies ClaimedDelivery
                )
              )
            ),
      recordAttempt: (id, record) =>
        Rows.execute(sql`
          UPDATE webhook_deliveries SET ${sql.update({ ...record })}
          WHERE id = ${id} AND status = 'pending' AND attempts = ${record.attempts}`),
      listDeliveries: (organizationId, endpointId, page) => {
        const where = sql`organization_id = ${organizationId} AND endpoint_id = ${endpointId}`
        return webhookDeliveriesList(where, page)
      },
      purgeRun: (organizationId, runId) =>
        sql`DELETE FROM webhook_deliveries WHERE organization_id = ${organizationId} AND run_id = ${runId} RETURNING id`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.length)
        )
    }
  })
)
