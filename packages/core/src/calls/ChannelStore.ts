import { Context, type Effect } from "effect"
import type { OrganizationId } from "../organizations/Organization.js"
import type { ChannelDecision, ChannelReservation } from "./OutboundChannels.js"

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
    /** Frees a channel; false when it was already free. */
    readonly release: (organizationId: OrganizationId, reservationId: string) => Effect.Effect<boolean>
    /** Channels held at `now`. */
    readonly held: (
      organizationId: OrganizationId,
      now: Date
    ) => Effect.Effect<ReadonlyArray<ChannelReservation>>
  }
>() {}
