import { Clock, Context, Effect, Either, Exit, FiberRef, Layer, Option, type Tracer } from "effect"
import { callEnded } from "../observability/OperationalEvents.js"
import * as SpanAttributes from "../observability/SpanAttributes.js"
import * as Agents from "../agents/Agents.js"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Run, RunStatus } from "../runs/Run.js"
import { RunNotFound } from "../runs/RunErrors.js"
import type { RunId } from "../runs/RunId.js"
import * as Runs from "../runs/Runs.js"
import type { RunPatch } from "../runs/RunStore.js"
import { RunStore } from "../runs/RunStore.js"
import { inTransaction, Transactions } from "../storage/Transactions.js"
import type { TranscriptFragment } from "../transcripts/Transcript.js"
import * as Transcripts from "../transcripts/Transcripts.js"
import { SecureRandom } from "../randomness/SecureRandom.js"
import type { RunEventType } from "../webhooks/WebhookEndpoint.js"
import * as Webhooks from "../webhooks/Webhooks.js"
import { WebhookStore } from "../webhooks/WebhookStore.js"
import { type CallEvent, type CallEventError, type CallEventOutcome, reportedStatus } from "./CallEvent.js"
import { CallAlreadyEnded, InvalidRecording } from "./CallEventErrors.js"
import { CallFragmentStore } from "./CallFragmentStore.js"
import * as CallEndWrites from "./CallEndWrites.js"
import * as CallProgress from "./CallProgress.js"
import * as WavFile from "./WavFile.js"
import * as BatchedWrites from "../writes/BatchedWrites.js"
import * as LiveRunWrites from "./LiveRunWrites.js"

import type { EndStatus } from "./CallEnd.js"
import * as OperationSpans from "../observability/OperationSpans.js"

export { EndStatus, maxDurationSeconds } from "./CallEnd.js"
export { CallEvent, type CallEventError, type CallEventOutcome } from "./CallEvent.js"

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
    /**
     * Applies several events of one run, in order, in one transaction that reads and holds the run once
     * (a chat's reply: the start, what was said); each is decided as `report` decides it, and the first
     * refused fails them all. An end is reported with `report` (it is written with the others of its time).
     */
    readonly reportAll: (
      organizationId: OrganizationId,
      runId: RunId,
      events: ReadonlyArray<Exclude<CallEvent, { readonly type: "ended" }>>
    ) => Effect.Effect<CallEventOutcome, CallEventError>
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

/**
 * The most calls' ends one transaction writes (`BatchedWrites`): ends reported while every turn is taken
 * wait together and are written together, each of the end's writes one statement for all of them.
 * `docs/limits.md`.
 */
export const endsAtOnce = 100

/** A call's end as reported, waiting to be written with others. */
interface ReportedEnd {
  readonly organizationId: OrganizationId
  readonly runId: RunId
  readonly event: Extract<CallEvent, { readonly type: "ended" }>
  /** The reporter's span, linked from the batch's. */
  readonly span: Tracer.AnySpan | undefined
}

/** Whether this fiber already holds a turn (`inTurn`): events reported inside it take none of their own. */
const holdsTurn = FiberRef.unsafeMake(false)

/** The service over the run and transcript services and the stores. */
export const make = Effect.gen(function* () {
  const runStore = yield* RunStore
  const runs = yield* Runs.Runs
  const fragments = yield* CallFragmentStore
  const transactions = yield* Transactions
  const webhookStore = yield* WebhookStore
  const random = yield* SecureRandom
  const writeEnds = yield* CallEndWrites.make
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
    Effect.map(writeEnds([{ run, status, reportedSeconds }], now), ([ended]) => applied(ended!))

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
          yield* fragments.append(run.organization_id, run.workflow_run_id, [
            { role: event.role, text: event.text, timestamp: event.timestamp }
          ])
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

  const whileLive = LiveRunWrites.make(runStore, fragments)

  /** One event in a transaction of its own (or the caller's, when it holds a turn): events of one call never interleave. */
  const reportAlone = (organizationId: OrganizationId, runId: RunId, event: CallEvent) =>
    event.type === "fragment" || event.type === "log"
      ? inTurn(
          Effect.flatMap(
            whileLive(organizationId, runId, event),
            Option.match({
              onSome: (run) => Effect.succeed(applied(run)),
              onNone: () => decided(organizationId, runId, event)
            })
          )
        )
      : decided(organizationId, runId, event)

  /** One event, decided on the run read and held in a transaction. */
  const decided = (organizationId: OrganizationId, runId: RunId, event: CallEvent) =>
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
      .pipe(inTurn)

  /**
   * Events of one run in one transaction, the run read and held once (`reportAll`). Inside a caller's
   * transaction, in that one rather than a savepoint of its own (a statement saved on every chat turn)
   * when no part of the events can need undoing: the call ending is refused before any write (only an
   * end, never among these events, makes the run final), and only a recording (its WAV checked) can
   * be refused after others were written, so events with a recording keep their savepoint.
   */
  const reportAll = (
    organizationId: OrganizationId,
    runId: RunId,
    events: ReadonlyArray<Exclude<CallEvent, { readonly type: "ended" }>>
  ) => {
    const report = Effect.gen(function* () {
      let outcome: CallEventOutcome = { _tag: "Ignored", run: yield* find(organizationId, runId) }
      // fragments in a row are appended together, in one write (a fragment moves no status)
      let said: Array<TranscriptFragment> = []
      const keepSaid = Effect.suspend(() => {
        const appended = said
        said = []
        return fragments.append(organizationId, runId, appended)
      })
      for (const event of events) {
        const run: Run = outcome.run
        const verdict = CallProgress.decide(run.status, reportedStatus(event))
        if (verdict._tag === "AfterEnd")
          return yield* new CallAlreadyEnded({ workflow_run_id: runId, status: run.status })
        if (verdict._tag !== "Apply") continue
        if (event.type === "fragment") {
          said.push({ role: event.role, text: event.text, timestamp: event.timestamp })
          outcome = applied(run)
          continue
        }
        yield* keepSaid
        outcome = yield* apply(run, event, verdict.status)
      }
      yield* keepSaid
      return outcome
    })
    return Effect.flatMap(FiberRef.get(inTransaction), (inside) =>
      inside && events.every((event) => event.type !== "recording") ? report : transactions.run(report)
    ).pipe(inTurn)
  }

  /**
   * Calls' ends reported at the same time, in one transaction: the runs read and held in one statement,
   * each end decided on its run as `reportAlone` decides it (a second end of one run in the batch finds
   * it ended), and every end applied written together (`CallEndWrites`). A refused end (no such run, the
   * call ended already) is refused alone; the others are written.
   */
  const writeEndBatch = (ends: ReadonlyArray<ReportedEnd>) =>
    transactions.run(
      Effect.gen(function* () {
        const now = new Date(yield* Clock.currentTimeMillis)
        const held = yield* runStore.findManyForUpdate(
          ends.map((e) => ({ organization_id: e.organizationId, workflow_run_id: e.runId }))
        )
        const current = new Map(held.map((run) => [CallEndWrites.runKey(run), run]))
        const outcomes: Array<Exit.Exit<CallEventOutcome, CallEventError> | "written"> = []
        const toWrite: Array<CallEndWrites.EndToWrite> = []
        for (const e of ends) {
          const key = CallEndWrites.runKey({ organization_id: e.organizationId, workflow_run_id: e.runId })
          const run = current.get(key)
          if (run === undefined) {
            outcomes.push(Exit.fail(new RunNotFound({ workflow_run_id: e.runId })))
            continue
          }
          const verdict = CallProgress.decide(run.status, e.event.status)
          if (verdict._tag === "AfterEnd") {
            outcomes.push(Exit.fail(new CallAlreadyEnded({ workflow_run_id: e.runId, status: run.status })))
          } else if (verdict._tag === "Stale") {
            outcomes.push(Exit.succeed({ _tag: "Ignored", run }))
          } else {
            toWrite.push({ run, status: e.event.status, reportedSeconds: e.event.duration_seconds })
            outcomes.push("written")
            // a later end of this run in the batch finds it ended
            current.set(key, { ...run, status: e.event.status })
          }
        }
        const written = yield* writeEnds(toWrite, now)
        let next = 0
        return outcomes.map((outcome) =>
          outcome === "written" ? Exit.succeed(applied(written[next++]!)) : outcome
        )
      })
    )

  /** `reportAlone`, an applied end logged and counted once committed (a rolled-back end counts nothing). */
  const reportAloneCounted = (organizationId: OrganizationId, runId: RunId, event: CallEvent) =>
    event.type === "ended"
      ? Effect.tap(reportAlone(organizationId, runId, event), (outcome) =>
          outcome._tag === "Applied" ? callEnded(outcome.run) : Effect.void
        )
      : reportAlone(organizationId, runId, event)

  const ends = yield* BatchedWrites.make<ReportedEnd, CallEventOutcome, CallEventError>({
    workers: eventsAtOnce,
    maxBatch: endsAtOnce,
    // one organization's batch at a time: what holds its rows up holds up none of another's ends
    groupOf: (e) => String(e.organizationId),
    turn: inTurn,
    writeBatch: (batch) =>
      writeEndBatch(batch).pipe(
        // logged and counted once committed, by the writer: also when the reporter stopped waiting
        Effect.tap((outcomes) =>
          Effect.forEach(
            outcomes,
            (outcome) =>
              Exit.isSuccess(outcome) && outcome.value._tag === "Applied"
                ? callEnded(outcome.value.run)
                : Effect.void,
            { discard: true }
          )
        ),
        // the writers were started with the engine: a batch's span is a root, linked to its reporters'
        Effect.withSpan("CallEvents.writeEnds", {
          root: true,
          attributes: { ends: batch.length },
          links: batch.flatMap((e) =>
            e.span === undefined ? [] : [{ _tag: "SpanLink" as const, span: e.span, attributes: {} }]
          )
        })
      ),
    writeOne: (e) => reportAloneCounted(e.organizationId, e.runId, e.event)
  })

  return CallEvents.of({
    inTurn,
    reportAll: OperationSpans.fn("CallEvents.reportAll")(reportAll, SpanAttributes.organizationRun),
    report: OperationSpans.fn("CallEvents.report")(
      (organizationId, runId, event) =>
        // One transaction per event, at most `eventsAtOnce` at a time (the permit is taken before a
        // connection is); calls' ends reported at once share one (`writeEndBatch`), unless the caller
        // holds a turn or is inside a transaction: its events belong to its own transaction.
        Effect.flatMap(
          Effect.zipWith(FiberRef.get(holdsTurn), FiberRef.get(inTransaction), (a, b) => a || b),
          (inOwnTransaction) =>
            event.type === "ended" && !inOwnTransaction
              ? Effect.flatMap(OperationSpans.currentSpan, (span) =>
                  ends.submit({ organizationId, runId, event, span })
                )
              : reportAloneCounted(organizationId, runId, event)
        ),
      SpanAttributes.organizationRun
    )
  })
})

/** Runs and transcripts as `CallEvents` uses them: stateless, so it builds its own over the same stores. */
const runServices = Runs.layer.pipe(Layer.provideMerge(Transcripts.layer), Layer.provide(Agents.layer))

/** Call events over the stores, file storage and configuration the host provides. */
export const layer = Layer.scoped(CallEvents, make).pipe(Layer.provide(runServices))
