import { SqlClient } from "@effect/sql"
import { ChannelStore } from "@voice-agent-platform/core/calls/ChannelStore.js"
import * as OutboundChannels from "@voice-agent-platform/core/calls/OutboundChannels.js"
import { ChannelReservation } from "@voice-agent-platform/core/calls/OutboundChannels.js"
import { Effect, Layer, Schema } from "effect"
import * as Batches from "../storage/Batches.js"
import * as Rows from "../storage/Rows.js"

const Released = Schema.Struct({ released: Schema.Number })

/**
 * Outbound channel reservations in PostgreSQL. Reservations of one organization are decided one at a
 * time, across processes: each runs in a transaction that first locks the organization's row
 * (`FOR NO KEY UPDATE`, which does not block rows referencing the organization from being written), then
 * reads the channels held and decides with `OutboundChannels.decide`, as the in-memory store does.
 */
export const layer: Layer.Layer<ChannelStore, never, SqlClient.SqlClient> = Layer.effect(
  ChannelStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const heldBy = (organizationId: number, now: Date) =>
      Rows.all(ChannelReservation)(sql`
        SELECT * FROM channel_reservations
        WHERE organization_id = ${organizationId} AND expires_at > ${now}
        ORDER BY reserved_at, id`)
    /** Holds the organization's channels until the transaction ends, and reclaims the expired ones. */
    const lockAndReclaim = (organizationId: number, now: Date) =>
      Effect.zipRight(
        Rows.execute(sql`SELECT id FROM organizations WHERE id = ${organizationId} FOR NO KEY UPDATE`),
        // Expired reservations are reclaimed here, so that the table does not grow without bound.
        Rows.execute(sql`
          DELETE FROM channel_reservations WHERE organization_id = ${organizationId} AND expires_at <= ${now}`)
      )
    return {
      reserve: (reservation, capacity, now) =>
        Effect.gen(function* () {
          yield* lockAndReclaim(reservation.organization_id, now)
          const decision = OutboundChannels.decide(
            yield* heldBy(reservation.organization_id, now),
            capacity,
            now
          )
          if (decision._tag === "Granted") {
            yield* Rows.execute(sql`INSERT INTO channel_reservations ${sql.insert({ ...reservation })}`)
          }
          return decision
        }).pipe(sql.withTransaction, Effect.orDie),
      reserveBatch: (organizationId, batch, capacity, now) =>
        Effect.gen(function* () {
          if (batch.length === 0) return { granted: 0, retryAfterSeconds: null }
          if (batch.some((r) => r.organization_id !== organizationId)) {
            return yield* Effect.dieMessage("a batch of channel reservations is of one organization")
          }
          yield* lockAndReclaim(organizationId, now)
          const decision = OutboundChannels.decideBatch(
            yield* heldBy(organizationId, now),
            capacity,
            now,
            batch
          )
          const granted = batch.slice(0, decision.granted)
          if (granted.length > 0) {
            yield* Rows.execute(
              sql`INSERT INTO channel_reservations ${sql.insert(granted.map((r) => ({ ...r })))}`
            )
          }
          return decision
        }).pipe(sql.withTransaction, Effect.orDie),
      release: (organizationId, reservationId) =>
        Rows.all(Schema.Unknown)(
          sql`
          DELETE FROM channel_reservations WHERE organization_id = ${organizationId} AND id = ${reservationId}
          RETURNING 1 AS released`
        ).pipe(Effect.map((rows) => rows.length > 0)),
      // One statement for the batch, answering the count rather than a row per reservation freed.
      releaseMany: (reservations) =>
        reservations.length === 0
          ? Effect.succeed(0)
          : Rows.single(Released)(
              sql`
              WITH released AS (
                DELETE FROM channel_reservations r
                USING ${Batches.recordset(
                  sql,
                  reservations.map(({ organization_id, id }) => ({ organization_id, id })),
                  "v",
                  "organization_id bigint, id text"
                )}
                WHERE r.organization_id = v.organization_id AND r.id = v.id
                RETURNING 1)
              SELECT count(*)::int8 AS released FROM released`
            ).pipe(Effect.map((row) => row.released)),
      held: heldBy
    }
  })
)
