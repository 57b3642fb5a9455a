import { Context, type Effect, type Option } from "effect"
import type { AgentId } from "../agents/AgentIds.js"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Page, PageRequest } from "../pagination/Page.js"
import type { EncodedPage } from "../pagination/EncodedPage.js"
import type { TokenUsage } from "../language-model/LanguageModel.js"
import type { E164 } from "../phone-numbers/E164.js"
import type {
  AnalysisStatus,
  newRunDefaults,
  Run,
  RunListing,
  RunLogEntry,
  RunMode,
  RunStatus,
  RunSummary
} from "./Run.js"
import type { RunId } from "./RunId.js"

/**
 * A run to store: its id and creation time are the store's, and the fields of `newRunDefaults` (no
 * fragment kept, no analysis, no tokens) take their defaults.
 */
export type NewRun = Omit<Run, "workflow_run_id" | "created_at" | keyof typeof newRunDefaults>

/** The run fields that change during and after a call. */
export type RunPatch = Partial<
  Pick<
    Run,
    | "status"
    | "initial_context"
    | "gathered_context"
    | "duration_seconds"
    | "cost"
    | "disposition"
    | "logs"
    | "sms"
    | "integration_deliveries"
    | "files"
    | "channel_reservation_id"
    | "ended_at"
    | "summary"
    | "analysis_status"
    | "analysis_error"
    | "model_cost"
    | "last_activity_at"
  >
>

/** A run named by its organization and id, as batch operations take them. */
export interface RunKey {
  readonly organization_id: OrganizationId
  readonly workflow_run_id: RunId
}

/**
 * What a call's end writes on its run: its final status, talk time, cost, the charge for its conversation's
 * model tokens, whether it will be analysed, and its end; its channel is let go.
 */
export interface RunEnd extends RunKey {
  readonly status: RunStatus
  readonly duration_seconds: number
  readonly cost: NonNullable<Run["cost"]>
  readonly model_cost: NonNullable<Run["model_cost"]>
  readonly analysis_status: Extract<AnalysisStatus, "pending" | "skipped">
  readonly ended_at: Date
}

/** Where a sweep over ended runs stopped: the last run it handled, in (ended_at, id) order. */
export interface EndedRunCursor {
  readonly ended_at: Date
  readonly workflow_run_id: RunId
}

/** What a runs list may be narrowed to; every field given must match. */
export interface RunFilter {
  readonly status?: RunStatus
  /** Created at or after this instant. */
  readonly created_after?: Date
  /** Created before this instant. */
  readonly created_before?: Date
  /** The called number, in E.164. */
  readonly phone_number?: E164
  /** The disposition code the analysis chose. */
  readonly disposition?: string
  readonly mode?: RunMode
}

/** The filter of the organization's list of every agent's runs: a `RunFilter`, and one agent's runs only. */
export interface RunListFilter extends RunFilter {
  readonly agent_id?: AgentId
}

/** Storage of runs. Every operation is scoped to one organization. */
export class RunStore extends Context.Tag("@voice-agent-platform/core/RunStore")<
  RunStore,
  {
    readonly insert: (run: NewRun, now: Date) => Effect.Effect<Run>
    /** Stores several runs in one step (a dialer's claim); answers them all, in no particular order. */
    readonly insertMany: (runs: ReadonlyArray<NewRun>, now: Date) => Effect.Effect<ReadonlyArray<Run>>
    readonly find: (organizationId: OrganizationId, id: RunId) => Effect.Effect<Option.Option<Run>>
    /**
     * The run, held until the surrounding transaction ends (a row lock in SQL): a transaction that decides
     * on a run's current state (a call event, a deletion) takes turns with every other such transaction on
     * that run, in any server process. Outside a transaction it is `find`.
     */
    readonly findForUpdate: (organizationId: OrganizationId, id: RunId) => Effect.Effect<Option.Option<Run>>
    /**
     * The runs of `keys` that exist (a key of another organization's run finds nothing), held as
     * `findForUpdate` holds one, in one step. Rows are locked in run id order, so two transactions holding
     * overlapping sets wait for each other instead of deadlocking. Answers them in no particular order.
     */
    readonly findManyForUpdate: (keys: ReadonlyArray<RunKey>) => Effect.Effect<ReadonlyArray<Run>>
    /**
     * Ends runs in one step (calls' ends taken together): sets each one's status, duration, cost and
     * `ended_at` and clears its channel reservation. Answers the runs as written; a key that finds no run
     * writes and answers nothing.
     */
    readonly endMany: (ends: ReadonlyArray<RunEnd>) => Effect.Effect<ReadonlyArray<Run>>
    /**
     * The run under `id` whatever its organization. Only for a voice runtime, which knows a call by its
     * global run id; everything an organization asks for goes through `find`.
     */
    readonly findAnyOrganization: (id: RunId) => Effect.Effect<Option.Option<Run>>
    /**
     * Keeps the carrier's id of the run's call (Twilio's CallSid) unless one is kept already: the first
     * wins (the dial's answer, or — when that answer was lost — the first signed callback naming the call).
     */
    readonly recordCarrierCall: (id: RunId, callId: string) => Effect.Effect<void>
    /** The carrier's id of the run's call, once kept (`recordCarrierCall`). */
    readonly carrierCallOf: (id: RunId) => Effect.Effect<Option.Option<string>>
    /**
     * Takes the run's media socket for the call `callId`, once: true only when the run is a live phone run
     * whose dialed call is `callId` and whose socket was not taken before (by any server). Atomic: of two
     * sockets racing, one gets it.
     */
    readonly claimMedia: (id: RunId, callId: string, now: Date) => Effect.Effect<boolean>
    /** Runs of one agent, newest first, as lists show them (a store may leave the other fields unread). */
    readonly list: (
      organizationId: OrganizationId,
      agentId: AgentId,
      filter: RunFilter,
      page: PageRequest
    ) => Effect.Effect<Page<RunSummary>>
    /**
     * The same page as `list`, its runs written as the API answers them (`RunSummaryJson`): a store that
     * can have the database write them hands the text over unparsed.
     */
    readonly listEncoded: (
      organizationId: OrganizationId,
      agentId: AgentId,
      filter: RunFilter,
      page: PageRequest
    ) => Effect.Effect<EncodedPage>
    /**
     * Runs of every agent of the organization (or of `filter.agent_id`'s), newest first, with their agents'
     * public ids and names (every run's agent exists: agents are archived, never removed).
     */
    readonly listAcrossAgents: (
      organizationId: OrganizationId,
      filter: RunListFilter,
      page: PageRequest
    ) => Effect.Effect<Page<RunListing>>
    readonly update: (
      organizationId: OrganizationId,
      id: RunId,
      patch: RunPatch
    ) => Effect.Effect<Option.Option<Run>>
    /**
     * Adds a line to the run's logs unless the run is final (`isFinal`), held as `findForUpdate` holds it,
     * in one step (a live call's log line: one statement, not a transaction's four). Answers the run as
     * written; none, writing nothing, when it does not exist or is final.
     */
    readonly appendLogWhileLive: (
      organizationId: OrganizationId,
      id: RunId,
      entry: RunLogEntry
    ) => Effect.Effect<Option.Option<Run>>
    /**
     * Adds a language-model request's tokens to the run's counters (one atomic increment, so concurrent
     * requests of one run all count) and, when given, sets `last_activity_at` in the same write (a chat's
     * kept reply). Answers the run as written; none when it does not exist.
     */
    readonly addModelUsage: (
      organizationId: OrganizationId,
      id: RunId,
      usage: TokenUsage,
      lastActivityAt?: Date
    ) => Effect.Effect<Option.Option<Run>>
    /**
     * Chats of every organization that have not ended (`initialized` ones too: their only message failed,
     * its tokens counted) and had their last activity (`last_activity_at`) before `lastActiveBefore`,
     * longest idle first, at most `limit`: what the idle sweep ends.
     */
    readonly idleChats: (lastActiveBefore: Date, limit: number) => Effect.Effect<ReadonlyArray<Run>>
    /**
     * Takes the run's conversation turn for `holder` until `until`, unless another holder has it until
     * after `now` (compare-and-set): of two servers answering messages of one chat at once, one holds the
     * turn and the other waits. Answers the run as it is once `holder` holds the turn (the read a turn
     * begins with, in the same write); none when another holds it or the run does not exist.
     */
    readonly takeTurn: (
      organizationId: OrganizationId,
      id: RunId,
      holder: string,
      until: Date,
      now: Date
    ) => Effect.Effect<Option.Option<Run>>
    /** Gives the turn back if `holder` holds it (a turn that ran out and was taken by another stays theirs). */
    readonly releaseTurn: (organizationId: OrganizationId, id: RunId, holder: string) => Effect.Effect<void>
    readonly countByAgent: (organizationId: OrganizationId, agentId: AgentId) => Effect.Effect<number>
    /** Erases the run record; it is gone from every read afterwards. Answers the erased run. */
    readonly remove: (organizationId: OrganizationId, id: RunId) => Effect.Effect<Option.Option<Run>>
    /** Organizations that have an ended run with a file key: where a retention sweep looks. */
    readonly organizationsWithFiles: Effect.Effect<ReadonlyArray<OrganizationId>>
    /**
     * The organization's ended runs with a file key that ended at or before `endedBy`, oldest end first
     * (ties by id), strictly after `after`, at most `limit`.
     */
    readonly endedWithFiles: (
      organizationId: OrganizationId,
      endedBy: Date,
      after: EndedRunCursor | null,
      limit: number
    ) => Effect.Effect<ReadonlyArray<Run>>
    /**
     * Live runs (queued, ringing, in progress) of every organization created at or before `createdBy`,
     * oldest first, chats left out (a chat holds no channel and ends when idle, see `idleChats`).
     */
    readonly liveCreatedBy: (createdBy: Date, limit: number) => Effect.Effect<ReadonlyArray<Run>>
  }
>() {}
