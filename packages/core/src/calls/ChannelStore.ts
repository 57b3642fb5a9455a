import { Context, type Effect } from "effect"
import type { OrganizationId } from "../organizations/Organization.js"
import type { BatchDecision, ChannelDecision, ChannelReservation } from "./OutboundChannels.js"

/**
 * The organization's outbound channels. `reserve` is exact under any concurrency, also across server
 * processes sharing one database: with N free channels and M > N simultaneous requests exactly N are
 * granted. The decision itself is `OutboundChannels.decide`.
 */
export class ChannelStore extends Context.Tag("@voice-agent-platform/core/ChannelStore")<
  ChannelStore,
  {
    readonly reserve: (
      reservation: ChannelReservation,
      capacity: number,
      now: Date
    ) => Effect.Effect<ChannelDecision>
    /**
     * Reserves channels for reservations of one organization at once, exact as `reserve` is: the first
     * ones get the free channels (`OutboundChannels.decideBatch`), the rest are not stored. One lock and
     * one insert for the batch, so the campaign dialer claims many contacts in a few round trips.
     */
    readonly reserveBatch: (
      organizationId: OrganizationId,
      reservations: ReadonlyArray<ChannelReservation>,
      capacity: number,
      now: Date
    ) => Effect.Effect<BatchDecision>
    /** Frees a channel; false when it was already free. */
    readonly release: (organizationId: OrganizationId, reservationId: string) => Effect.Effect<boolean>
    /**
     * Frees several channels in one step (calls' ends taken together), each of its own organization (a
     * reservation of another organization is left alone); answers how many were held.
     */
    readonly releaseMany: (
      reservations: ReadonlyArray<{ readonly organization_id: OrganizationId; readonly id: string }>
    ) => Effect.Effect<number>
    /** Channels held at `now`. */
    readonly held: (
      organizationId: OrganizationId,
      now: Date
    ) => Effect.Effect<ReadonlyArray<ChannelReservation>>
  }
>() {}
