import { Effect, Layer } from "effect"
import { ChannelStore } from "../calls/ChannelStore.js"
import * as OutboundChannels from "../calls/OutboundChannels.js"
import type { ChannelReservation } from "../calls/OutboundChannels.js"
import { MemoryDatabaseTag } from "./MemoryDatabase.js"

/** Outbound channel reservations in memory; each reservation is decided in one atomic step. */
export const layer: Layer.Layer<ChannelStore, never, MemoryDatabaseTag> = Layer.effect(
  ChannelStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabaseTag
    const reservations = db.table<string, ChannelReservation>("channel_reservations")
    const heldBy = (organizationId: number, now: Date) =>
      OutboundChannels.live(
        reservations.values().filter((r) => r.organization_id === organizationId),
        now
      )
    return {
      reserve: (reservation, capacity, now) =>
        db.atomically(() => {
          // Expired reservations are reclaimed here, so that the table does not grow without bound.
          for (const r of reservations.values()) {
            if (
              r.organization_id === reservation.organization_id &&
              r.expires_at.getTime() <= now.getTime()
            ) {
              reservations.delete(r.id)
            }
          }
          const decision = OutboundChannels.decide(heldBy(reservation.organization_id, now), capacity, now)
          if (decision._tag === "Granted") reservations.set(reservation.id, reservation)
          return decision
        }),
      release: (organizationId, reservationId) =>
        db.atomically(() => {
          const current = reservations.get(reservationId)
          return current?.organization_id === organizationId ? reservations.delete(reservationId) : false
        }),
      held: (organizationId, now) => db.atomically(() => heldBy(organizationId, now))
    }
  })
)
