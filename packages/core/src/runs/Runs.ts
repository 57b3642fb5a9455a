import { Clock, Context, Effect, Layer, Option } from "effect"
import * as SpanAttributes from "../observability/SpanAttributes.js"
import * as BrowserSessionLimits from "../voice/BrowserSessionLimits.js"
import type { AgentNotFound } from "../agents/AgentErrors.js"
import type { AgentRef } from "../agents/AgentIds.js"
import { CampaignStore } from "../campaigns/CampaignStore.js"
import { Agents } from "../agents/Agents.js"
import { BlobStore } from "../files/BlobStore.js"
import { IdempotencyStore } from "../idempotency/IdempotencyStore.js"
import type { OrganizationId } from "../organizations/Organization.js"
import type * as EncodedPage from "../pagination/EncodedPage.js"
import * as Page from "../pagination/Page.js"
import type { PageRequest } from "../pagination/Page.js"
import { Transactions } from "../storage/Transactions.js"
import * as Transcripts from "../transcripts/Transcripts.js"
import { SecureRandom } from "../randomness/SecureRandom.js"
import * as Webhooks from "../webhooks/Webhooks.js"
import { WebhookStore } from "../webhooks/WebhookStore.js"
import type { Run, RunListing, RunStatus, RunSummary } from "./Run.js"
import { isLive } from "./Run.js"
import { newRun } from "./NewRun.js"
import { RunFileNotAvailable, RunNotFound } from "./RunErrors.js"
import type { RunFilter } from "./RunStore.js"
import { RunStore } from "./RunStore.js"
import type { ConversationMode } from "./ConversationMode.js"
import { recordingContentType } from "./Recording.js"

import { RunStillLive } from "./RunErrors.js"
import { AgentArchived } from "../agents/AgentErrors.js"
import type { RunId } from "./RunId.js"
import * as OperationSpans from "../observability/OperationSpans.js"
export { ConversationMode } from "./ConversationMode.js"

/** A new conversation record. */
export interface CreateConversation {
  readonly mode: ConversationMode
  readonly initial_context?: Readonly<Record<string, unknown>>
  readonly name?: string | null
}

export { recordingContentType } from "./Recording.js"

/** Where a run's recording is stored. */
export const recordingKey = (organizationId: OrganizationId, runId: RunId): string =>
  `organizations/${organizationId}/runs/${runId}/recording.wav`

/** A run's recording: the run and the storage key of its WAV file. */
export interface RunRecording {
  readonly run: Run
  readonly file_key: string
  readonly content_type: typeof recordingContentType
}

/**
 * Runs (calls, browser sessions, chats) as an agent's API shows them: every read is scoped to the agent
 * in the path, so another agent's run is "not found" exactly like a missing one.
 */
export class Runs extends Context.Tag("@voice-agent-platform/core/Runs")<
  Runs,
  {
    /** A run record for a browser session or chat; places no call. Status `initialized`. */
    readonly createConversation: (
      organizationId: OrganizationId,
      agent: AgentRef | string,
      request: CreateConversation
    ) => Effect.Effect<Run, AgentNotFound | AgentArchived | BrowserSessionLimits.BrowserSessionsBusy>
    /** The agent's runs, newest first. */
    readonly list: (
      organizationId: OrganizationId,
      agent: AgentRef | string,
      filter: RunFilter,
      page: PageRequest
    ) => Effect.Effect<Page.Page<RunSummary>, AgentNotFound>
    /** The agent's runs, newest first, written as the API answers them (`RunStore.listEncoded`). */
    readonly listEncoded: (
      organizationId: OrganizationId,
      agent: AgentRef | string,
      filter: RunFilter,
      page: PageRequest
    ) => Effect.Effect<EncodedPage.EncodedPage, AgentNotFound>
    /**
     * The runs of every agent of the organization, newest first, or of `agent`'s only: an agent the
     * organization does not have matches no run (an empty page, as any filter that matches nothing).
     */
    readonly listAcrossAgents: (
      organizationId: OrganizationId,
      filter: RunFilter & { readonly agent?: AgentRef | string },
      page: PageRequest
    ) => Effect.Effect<Page.Page<RunListing>>
    readonly get: (
      organizationId: OrganizationId,
      agent: AgentRef | string,
      runId: RunId
    ) => Effect.Effect<Run, AgentNotFound | RunNotFound>
    /** The run's transcript turns (see `Transcripts.read`), scoped to the agent. */
    readonly transcript: (
      organizationId: OrganizationId,
      agent: AgentRef | string,
      runId: RunId
    ) => Effect.Effect<Transcripts.RunTranscript, AgentNotFound | RunNotFound | RunFileNotAvailable>
    /** The run's recording; not available while the call is live, when it has none, or after it was removed. */
    readonly recording: (
      organizationId: OrganizationId,
      agent: AgentRef | string,
      runId: RunId
    ) => Effect.Effect<RunRecording, AgentNotFound | RunNotFound | RunFileNotAvailable>
    /** Writes the run's recording (a WAV file) and links it to the run. */
    readonly saveRecording: (
      organizationId: OrganizationId,
      runId: RunId,
      wav: Uint8Array
    ) => Effect.Effect<string, RunNotFound>
    /**
     * Erases an ended run: its recording and transcript leave storage, then the record (with its context,
     * logs, SMS and integration deliveries), its webhook deliveries and the answers kept for the
     * Idempotency-Key that placed it are removed, so every run read answers "not found". The usage
     * ledger keeps its line: duration and cost stay billed.
     */
    readonly delete: (
      organizationId: OrganizationId,
      agent: AgentRef | string,
      runId: RunId
    ) => Effect.Effect<void, AgentNotFound | RunNotFound | RunStillLive>
  }
>() {}

export const layer = Layer.effect(
  Runs,
  Effect.gen(function* () {
    const agents = yield* Agents
    const runs = yield* RunStore
    const blobs = yield* BlobStore
    const transcripts = yield* Transcripts.Transcripts
    const transactions = yield* Transactions
    const webhookStore = yield* WebhookStore
    const idempotency = yield* IdempotencyStore
    const random = yield* SecureRandom
    const campaigns = yield* CampaignStore

    const notFound = (runId: RunId) => new RunNotFound({ workflow_run_id: runId })

    /** The run if it belongs to the agent; another agent's run does not exist under this agent's path. */
    const findOfAgent = (organizationId: OrganizationId, agent: AgentRef | string, runId: RunId) =>
      Effect.gen(function* () {
        const resolved = yield* agents.resolve(organizationId, agent)
        const run = yield* runs.find(organizationId, runId)
        return Option.isSome(run) && run.value.workflow_id === resolved.id
          ? run.value
          : yield* notFound(runId)
      })

    const findRun = (organizationId: OrganizationId, runId: RunId) =>
      Effect.flatMap(
        runs.find(organizationId, runId),
        Option.match({ onNone: () => Effect.fail(notFound(runId)), onSome: Effect.succeed })
      )

    const refuseLive = (run: Run) =>
      isLive(run.status)
        ? Effect.fail(new RunStillLive({ workflow_run_id: run.workflow_run_id, status: run.status }))
        : Effect.void

    return {
      createConversation: OperationSpans.fn("Runs.createConversation")(function* (
        organizationId,
        agent,
        request
      ) {
        const resolved = yield* agents.resolve(organizationId, agent)
        // An archived agent takes no new calls; a browser session or chat is a call all the same.
        if (resolved.status === "archived") {
          return yield* new AgentArchived({ agent_id: resolved.public_id })
        }
        const now = new Date(yield* Clock.currentTimeMillis)
        // a browser session takes one of the organization's live sessions
        if (request.mode !== "chat") {
          yield* Effect.provideService(BrowserSessionLimits.admit(organizationId, now), RunStore, runs)
        }
        return yield* runs.insert(
          newRun({
            workflow_id: resolved.id,
            agent_definition_id: resolved.current_definition_id,
            organization_id: organizationId,
            mode: request.mode,
            status: "initialized" satisfies RunStatus,
            name: request.name ?? null,
            phone_number: null,
            initial_context: { ...request.initial_context }
          }),
          now
        )
      }, SpanAttributes.organizationAgent),

      list: OperationSpans.fn("Runs.list")(
        (organizationId, agent, filter, page) =>
          Effect.flatMap(agents.resolve(organizationId, agent), (resolved) =>
            runs.list(organizationId, resolved.id, filter, page)
          ),
        SpanAttributes.organizationAgent
      ),

      listEncoded: OperationSpans.fn("Runs.listEncoded")(
        (organizationId, agent, filter, page) =>
          Effect.flatMap(agents.resolve(organizationId, agent), (resolved) =>
            runs.listEncoded(organizationId, resolved.id, filter, page)
          ),
        SpanAttributes.organizationAgent
      ),

      listAcrossAgents: OperationSpans.fn("Runs.listAcrossAgents")(
        (organizationId, { agent, ...filter }, page) =>
          agent === undefined
            ? runs.listAcrossAgents(organizationId, filter, page)
            : agents.resolve(organizationId, agent).pipe(
                Effect.flatMap((resolved) =>
                  runs.listAcrossAgents(organizationId, { ...filter, agent_id: resolved.id }, page)
                ),
                Effect.catchTag("AgentNotFound", () => Effect.succeed(Page.make<RunListing>([], 0, page)))
              ),
        SpanAttributes.organization
      ),

      get: OperationSpans.fn("Runs.get")(findOfAgent, SpanAttributes.organizationAgentRun),

      transcript: OperationSpans.fn("Runs.transcript")(
        (organizationId, agent, runId) =>
          Effect.flatMap(findOfAgent(organizationId, agent, runId), () =>
            transcripts.read(organizationId, runId)
          ),
        SpanAttributes.organizationAgentRun
      ),

      recording: OperationSpans.fn("Runs.recording")(function* (organizationId, agent, runId) {
        const run = yield* findOfAgent(organizationId, agent, runId)
        const unavailable = (reason: RunFileNotAvailable["reason"]) =>
          new RunFileNotAvailable({ workflow_run_id: runId, file: "recording", reason })
        if (isLive(run.status)) return yield* unavailable("in_progress")
        const key = run.files.recording
        if (key === null) return yield* unavailable("not_recorded")
        // The record can outlive the file: a retention policy removes blobs, not runs.
        if (Option.isNone(yield* blobs.get(key))) return yield* unavailable("deleted")
        return { run, file_key: key, content_type: recordingContentType } as const
      }, SpanAttributes.organizationAgentRun),

      saveRecording: OperationSpans.fn("Runs.saveRecording")(function* (organizationId, runId, wav) {
        const run = yield* findRun(organizationId, runId)
        const key = recordingKey(organizationId, runId)
        yield* blobs.put(key, { bytes: wav, content_type: recordingContentType })
        yield* runs.update(organizationId, runId, { files: { ...run.files, recording: key } })
        return key
      }, SpanAttributes.organizationRun),

      delete: OperationSpans.fn("Runs.delete")(function* (organizationId, agent, runId) {
        const run = yield* findOfAgent(organizationId, agent, runId)
        yield* refuseLive(run)
        // Files first: if anything stops half-way, the run is still there and the delete can be repeated,
        // rather than files left behind that nothing points to any more.
        const keys = new Set(
          [
            run.files.recording,
            run.files.transcript,
            recordingKey(organizationId, runId),
            Transcripts.fileKey(organizationId, runId)
          ].filter((key): key is string => key !== null)
        )
        yield* Effect.forEach(keys, (key) => blobs.remove(key), { discard: true })
        yield* transactions.run(
          Effect.gen(function* () {
            // The status may have moved on since it was read; a call that went live keeps its record. The
            // run is held until the deletion commits, so it cannot go live in between.
            const current = yield* Effect.flatMap(
              runs.findForUpdate(organizationId, runId),
              Option.match({ onNone: () => Effect.fail(notFound(runId)), onSome: Effect.succeed })
            )
            yield* refuseLive(current)
            yield* runs.remove(organizationId, runId)
            // A campaign's report no longer shows the run (its gathered data, its id).
            if (current.campaign_id !== null) yield* campaigns.forgetRun(organizationId, runId)
            // Earlier deliveries carry the run's data and go with it; `call.deleted` says only which run went.
            yield* webhookStore.purgeRun(organizationId, runId)
            // So do answers kept for an Idempotency-Key that placed the call (they hold its number).
            yield* idempotency.eraseRun(organizationId, runId)
            yield* Webhooks.enqueue(organizationId, "call.deleted", current).pipe(
              Effect.provideService(WebhookStore, webhookStore),
              Effect.provideService(SecureRandom, random)
            )
          })
        )
      }, SpanAttributes.organizationAgentRun)
    }
  })
)
