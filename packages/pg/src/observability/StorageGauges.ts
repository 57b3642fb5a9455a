import { SqlClient } from "@effect/sql"
import { OperationalEvents } from "@voice-agent-platform/core"
import { Clock, Effect, Metric } from "effect"

/**
 * Reads the figures that belong to the whole database rather than to one process, and sets their
 * gauges: outbound channels held now (`vap_channels_in_use`) and webhook deliveries pending
 * (`vap_webhook_backlog`). One statement; a failure is logged and leaves the gauges as they were. A
 * reservation is held until its `expires_at` by the engine's clock, as `PgChannelStore` decides it (not the
 * database's `now()`, which a server's clock need not agree with).
 */
export const refresh: Effect.Effect<void, never, SqlClient.SqlClient> = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const now = new Date(yield* Clock.currentTimeMillis)
  const rows = yield* sql<{ readonly channels: number; readonly backlog: number }>`
    SELECT
      (SELECT count(*) FROM channel_reservations WHERE expires_at > ${now})::int AS channels,
      (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending')::int AS backlog`
  const figures = rows[0]
  if (figures === undefined) return
  yield* Metric.set(OperationalEvents.channelsInUse, figures.channels)
  yield* Metric.set(OperationalEvents.webhookBacklog, figures.backlog)
}).pipe(
  Effect.catchAllCause((cause) => Effect.logWarning("metrics: the storage gauges could not be read", cause)),
  Effect.withSpan("StorageGauges.refresh", { captureStackTrace: false })
)
