import { Effect, Layer, Option } from "effect"
import { ChannelStore } from "../calls/ChannelStore.js"
import * as OutboundChannels from "../calls/OutboundChannels.js"
import type { ChannelReservation } from "../calls/OutboundChannels.js"
import type { OrganizationId } from "../organizations/Organization.js"
import { MemoryDatabase } from "./MemoryDatabase.js"
import { organizationTable } from "./OrganizationTable.js"

/** Outbound channel reservations in memory; each reservation is decided in one atomic step. */
export const layer: Layer.Layer<ChannelStore, never, MemoryDatabase> = Layer.effect(
  ChannelStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    const reservations = organizationTable(db.table<string, ChannelReservation>("channel_reservations"), {
      at: (r) => r.reserved_at,
      id: (r) => r.id
    })
    const heldBy = (organizationId: OrganizationId, now: Date) =>
      OutboundChannels.live(reservations.ownRows(organizationId), now)
    // Expired reservations are reclaimed when reserving, so that the table does not grow without bound.
    const reclaim = (organizationId: OrganizationId, now: Date) => {
      const expired = reservations.ownRows(organizationId, (r) => r.expires_at.getTime() <= now.getTime())
      for (const r of expired) reservations.delete(r.id)
    }
    return {
      reserve: (reservation, capacity, now) =>
        db.atomically(() => {
          reclaim(reservation.organization_id, now)
          const decision = OutboundChannels.decide(heldBy(reservation.organization_id, now), capacity, now)
          if (decision._tag === "Granted") reservations.set(reservation.id, reservation)
          return decision
        }),
      reserveBatch: (organizationId, batch, capacity, now) =>
        batch.some((r) => r.organization_id !== organizationId)
          ? Effect.dieMessage("a batch of channel reservations is of one organization")
          : db.atomically(() => {
              reclaim(organizationId, now)
              const decision = OutboundChannels.decideBatch(heldBy(organizationId, now), capacity, now, batch)
              for (const r of batch.slice(0, decision.granted)) reservations.set(r.id, r)
              return decision
            }),
      release: (organizationId, reservationId) =>
        db.atomically(() => Option.isSome(reservations.removeOwn(organizationId, reservationId))),
      releaseMany: (many) =>
        db.atomically(
          () => many.filter((r) => Option.isSome(reservations.removeOwn(r.organization_id, r.id))).length
        ),
      held: (organizationId, now) => db.atomically(() => heldBy(organizationId, now))
    }
  })
)
