import { Effect, Layer, Option } from "effect"
import { ChannelStore } from "../calls/ChannelStore.js"
import * as OutboundChannels from "../calls/OutboundChannels.js"
import type { ChannelReservation } from "../calls/OutboundChannels.js"
import type { OrganizationId } from "../organizations/Organization.js"
import { MemoryDatabaseTag } from "./MemoryDatabase.js"
import { organizationTable } from "./OrganizationTable.js"

/** Outbound channel reservations in memory; each reservation is decided in one atomic step. */
export const layer: Layer.Layer<ChannelStore, never, MemoryDatabaseTag> = Layer.effect(
  ChannelStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabaseTag
    const reservations = organizationTable(db.table<string, ChannelReservation>("channel_reservations"), {
      at: (r) => r.reserved_at,
      id: (r) => r.id
    })
    const heldBy = (organizationId: OrganizationId, now: Date) =>
      OutboundChannels.live(reservations.ownRows(organizationId), now)
    return {
      reserve: (reservation, capacity, now) =>
        db.atomically(() => {
          // Expired reservations are reclaimed here, so that the table does not grow without bound.
          const expired = reservations.ownRows(
            reservation.organization_id,
            (r) => r.expires_at.getTime() <= now.getTime()
          )
          for (const r of expired) reservations.delete(r.id)
          const decision = OutboundChannels.decide(heldBy(reservation.organization_id, now), capacity, now)
          if (decision._tag === "Granted") reservations.set(reservation.id, reservation)
          return decision
        }),
      release: (organizationId, reservationId) =>
        db.atomically(() => Option.isSome(reservations.removeOwn(organizationId, reservationId))),
      held: (organizationId, now) => db.atomically(() => heldBy(organizationId, now))
    }
  })
)
