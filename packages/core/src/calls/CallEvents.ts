import { Clock, Context, Effect, Either, FiberRef, Layer, Option, Schema } from "effect"
import { callEnded } from "../observability/OperationalEvents.js"
import { withOperationSpans } from "../observability/OperationSpans.js"
import * as Agents from "../agents/Agents.js"
import * as CampaignAttempts from "../campaigns/CampaignAttempts.js"
import { CampaignStore } from "../campaigns/CampaignStore.js"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Run, RunStatus } from "../runs/Run.js"
import { RunLogEntry } from "../runs/Run.js"
import { RunNotFound } from "../runs/RunErrors.js"
import type { RunId } from "../runs/RunId.js"
import * as Runs from "../runs/Runs.js"
import type { RunPatch } from "../runs/RunStore.js"
import { RunStore } from "../runs/RunStore.js"
import { Transactions } from "../storage/Transactions.js"
import { Role } from "../transcripts/Transcript.js"
import * as Transcripts from "../transcripts/Transcripts.js"
import { UsageStore } from "../usage/UsageStore.js"
import { SecureRandom } from "../randomness/SecureRandom.js"
import type { RunEventType } from "../webhooks/WebhookEndpoint.js"
import * as Webhooks from "../webhooks/Webhooks.js"
import { WebhookStore } from "../webhooks/WebhookStore.js"
import * as CallCost from "./CallCost.js"
import { CallAlreadyEnded, InvalidRecording } from "./CallEventErrors.js"
import { CallFragmentStore } from "./CallFragmentStore.js"
import * as CallProgress from "./CallProgress.js"
import { CallRates } from "./CallRates.js"
import { ChannelStore } from "./ChannelStore.js"
import * as WavFile from "./WavFile.js"

import { EndStatus, maxDurationSeconds } from "./CallEnd.js"

export { EndStatus, maxDurationSeconds } from "./CallEnd.js"

/**
 * What a voice runtime reports about a call, in the order it happens: it rings (`started` is the same as
 * `ringing`), is answered, people speak (`fragment`), the agent gathers data, sends an SMS, logs, hands
 * over the recording, and the call ends with its talk time in seconds (fractions allowed).
 */
export const CallEvent = Schema.Union(
  Schema.Struct({ type: Schema.Literal("started", "ringing") }),
  Schema.Struct({ type: Schema.Literal("answered") }),
  Schema.Struct({
    type: Schema.Literal("fragment"),
    role: Role,
    text: Schema.String,
    timestamp: Schema.ValidDateFromSelf
  }),
  Schema.Struct({
    type: Schema.Literal("gathered"),
    values: Schema.Record({ key: Schema.String, value: Schema.Unknown })
  }),
  Schema.Struct({ type: Schema.Literal("sms"), to: Schema.String, text: Schema.String }),
  Schema.Struct({ type: Schema.Literal("log"), level: RunLogEntry.fields.level, message: Schema.String }),
  Schema.Struct({ type: Schema.Literal("recording"), bytes: Schema.Uint8ArrayFromSelf }),
  Schema.Struct({
    type: Schema.Literal("ended"),
    status: EndStatus,
    duration_seconds: Schema.Number.pipe(Schema.between(0, maxDurationSeconds))
  })
).annotations({ identifier: "CallEvent" })
export type CallEvent = typeof CallEvent.Type

/** What became of an event: applied, or ignored because it repeated or reordered an earlier status. */
export type CallEventOutcome =
  { readonly _tag: "Applied"; readonly run: Run } | { readonly _tag: "Ignored"; readonly run: Run }

export type CallEventError = RunNotFound | CallAlreadyEnded | InvalidRecording

/** The status an event reports, or null for an event that carries content only. */
const reportedStatus = (event: CallEvent): RunStatus | null => {
  switch (event.type) {
    case "started":
    case "ringing":
      return "ringing"
    case "answered":
      return "in_progress"
    case "ended":
      return event.status
    default:
      return null
  }
}

/**
 * The one way a call's progress arrives, from the simulated runtime in process or from an out-of-process
 * voice runtime. It moves the run's status forward (see `CallProgress`), keeps transcript fragments in
 * storage while the call is live, and when the call ends, in one transaction: writes the transcript file,
 * sets status, duration, cost and `ended_at`, gives the outbound channel back and writes the call's line
 * in the billing ledger (at `CallRates`, see `CallCost`).
 *
 * The recording is written to file storage when it arrives (bytes do not belong in the run store); like
 * the transcript it cannot be read before the call has ended.
 */
export class CallEvents extends Context.Tag("@voice-agent-platform/core/CallEvents")<
  CallEvents,
  {
    /**
     * Applies one event to a run. Fails when the run does not exist, when the call has already ended
     * (`CallAlreadyEnded`: nothing changes after the end) or when a recording is not a PCM WAV file.
     */
    readonly report: (
      organizationId: OrganizationId,
      runId: RunId,
      event: CallEvent
    ) => Effect.Effect<CallEventOutcome, CallEventError>
    /**
     * Runs `effect` as one of the call events applied at once (`eventsAtOnce`): a caller that reports
     * several events in a transaction of its own takes the turn for all of them before it takes a
     * connection (events reported inside it take no other turn), or it could hold a connection while
     * waiting for a turn that waits for its connection.
     */
    readonly inTurn: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  }
>() {}

/**
 * The most call events one process applies at once (the dialer's claims take their turn too); the
 * others wait for a turn (Effect's semaphore: not strictly in arrival order, see docs/decisions.md). Each
 * holds a database connection for its transaction: without a bound, a burst of ends (a campaign's claimed
 * calls ending together) queues every other query of the process behind it in the pool (10 connections
 * by default), the campaign report's and the API's included. `docs/limits.md`. A caller reporting events
 * inside a transaction of its own must take the turn first (`inTurn`).
 */
export const eventsAtOnce = 8

/** Whether this fiber already holds a turn (`inTurn`): events reported inside it take none of their own. */
const holdsTurn = FiberRef.unsafeMake(false)

/** The service over the run and transcript services and the stores. */
export const make = Effect.gen(function* () {
  const runStore = yield* RunStore
  const runs = yield* Runs.Runs
  const transcripts = yield* Transcripts.Transcripts
  const fragments = yield* CallFragmentStore
  const channels = yield* ChannelStore
  const ledger = yield* UsageStore
  const transactions = yield* Transactions
  const rate = yield* CallRates
  const webhookStore = yield* WebhookStore
  const random = yield* SecureRandom
  const campaigns = yield* CampaignStore
  const inFlight = yield* Effect.makeSemaphore(eventsAtOnce)
  const inTurn = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.flatMap(FiberRef.get(holdsTurn), (held) =>
      held ? effect : inFlight.withPermits(1)(Effect.locally(effect, holdsTurn, true))
    )

  /** Queues the event for the organization's webhooks, in the event's own transaction. */
  const emit = (run: Run, type: RunEventType) =>
    Webhooks.enqueue(run.organization_id, type, run).pipe(
      Effect.provideService(WebhookStore, webhookStore),
      Effect.provideService(SecureRandom, random)
    )

  /** The run, held until the event's transaction ends: events of one call take turns, in any process. */
  const find = (organizationId: OrganizationId, runId: RunId) =>
    Effect.flatMap(
      runStore.findForUpdate(organizationId, runId),
      Option.match({
        onNone: () => Effect.fail(new RunNotFound({ workflow_run_id: runId })),
        onSome: Effect.succeed
      })
    )

  const update = (run: Run, patch: RunPatch) =>
    Effect.flatMap(
      runStore.update(run.organization_id, run.workflow_run_id, patch),
      Option.match({
        onNone: () => Effect.fail(new RunNotFound({ workflow_run_id: run.workflow_run_id })),
        onSome: Effect.succeed
      })
    )

  const applied = (run: Run): CallEventOutcome => ({ _tag: "Applied", run })

  /** The end of a call: its transcript, its final state, its channel and its ledger line, together. */
  const end = (run: Run, status: EndStatus, reportedSeconds: number, now: Date) =>
    Effect.gen(function* () {
      const { organization_id: organizationId, workflow_run_id: runId } = run
      // a run no fragment was kept for (most campaign calls' ends) has none to read
      const spoken = run.fragments_kept ? yield* fragments.list(organizationId, runId) : []
      if (spoken.length > 0) yield* transcripts.save(organizationId, runId, spoken)
      const duration = CallCost.wholeSeconds(reportedSeconds)
      const cost = CallCost.compute(duration, rate)
      const ended = yield* update(run, {
        status,
        duration_seconds: duration,
        cost,
        ended_at: now,
        channel_reservation_id: null
      })
      if (run.channel_reservation_id !== null) {
        yield* channels.release(organizationId, run.channel_reservation_id)
      }
      // One line per call, also for one nobody answered (0 s, 0 PLN): the ledger accounts for every call.
      yield* ledger.record({
        organization_id: organizationId,
        run_id: runId,
        agent_id: run.workflow_id,
        mode: run.mode,
        duration_seconds: duration,
        cost,
        currency: run.currency,
        recorded_at: now
      })
      // none kept (the run's events take turns, so none can arrive meanwhile): nothing to clear
      if (spoken.length > 0) yield* fragments.clear(organizationId, runId)
      yield* emit(ended, "call.ended")
      // A campaign's attempt: its contact moves on (completed, retry, failed) in this same transaction;
      // its totals are added without holding the campaign's row (see CampaignAttempts.runEnded).
      yield* CampaignAttempts.runEnded(ended, now).pipe(
        Effect.provideService(CampaignStore, campaigns),
        Effect.provideService(WebhookStore, webhookStore),
        Effect.provideService(SecureRandom, random)
      )
      return applied(ended)
    })

  const apply = (run: Run, event: CallEvent, status: RunStatus) =>
    Effect.gen(function* () {
      const now = new Date(yield* Clock.currentTimeMillis)
      switch (event.type) {
        case "started":
        case "ringing":
        case "answered": {
          const moved = yield* update(run, { status })
          // The call starts for webhooks when it first goes live (ringing, or answered straight away).
          if (run.status !== "ringing" && run.status !== "in_progress") yield* emit(moved, "call.started")
          return applied(moved)
        }
        case "fragment":
          yield* fragments.append(run.organization_id, run.workflow_run_id, {
            role: event.role,
            text: event.text,
            timestamp: event.timestamp
          })
          return applied(run)
        case "gathered":
          // Later values win: a runtime may correct what it gathered earlier.
          return applied(
            yield* update(run, { gathered_context: { ...run.gathered_context, ...event.values } })
          )
        case "sms":
          return applied(
            yield* update(run, { sms: [...run.sms, { to: event.to, text: event.text, sent_at: now }] })
          )
        case "log":
          return applied(
            yield* update(run, {
              logs: [...run.logs, { timestamp: now, level: event.level, message: event.message }]
            })
          )
        case "recording": {
          const wav = WavFile.parse(event.bytes)
          if (Either.isLeft(wav)) {
            return yield* new InvalidRecording({
              workflow_run_id: run.workflow_run_id,
              reason: wav.left.reason
            })
          }
          yield* runs.saveRecording(run.organization_id, run.workflow_run_id, event.bytes)
          return applied(yield* find(run.organization_id, run.workflow_run_id))
        }
        case "ended":
          return yield* end(run, event.status, event.duration_seconds, now)
      }
    })

  return CallEvents.of({
    inTurn,
    ...withOperationSpans<Pick<CallEvents["Type"], "report">>("CallEvents", {
      report: (organizationId, runId, event) =>
        // One transaction per event: events of one call never interleave, and an end is all or nothing.
        // At most `eventsAtOnce` at a time (the permit is taken before a connection is).
        transactions
          .run(
            Effect.gen(function* () {
              const run = yield* find(organizationId, runId)
              const verdict = CallProgress.decide(run.status, reportedStatus(event))
              switch (verdict._tag) {
                case "AfterEnd":
                  return yield* new CallAlreadyEnded({ workflow_run_id: runId, status: run.status })
                case "Stale":
                  return { _tag: "Ignored", run } satisfies CallEventOutcome
                case "Apply":
                  return yield* apply(run, event, verdict.status)
              }
            })
          )
          .pipe(
            inTurn,
            // logged and counted once the end is committed: a rolled-back (or retried) end counts nothing
            Effect.tap((outcome) =>
              event.type === "ended" && outcome._tag === "Applied" ? callEnded(outcome.run) : Effect.void
            )
          )
    })
  })
})

/** Runs and transcripts as `CallEvents` uses them: stateless, so it builds its own over the same stores. */
const runServices = Runs.layer.pipe(Layer.provideMerge(Transcripts.layer), Layer.provide(Agents.layer))

/** Call events over the stores, file storage and configuration the host provides. */
export const layer = Layer.effect(CallEvents, make).pipe(Layer.provide(runServices))
