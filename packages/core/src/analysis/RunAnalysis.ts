import { Cause, Clock, Context, Duration, Effect, Layer, Option, Schedule } from "effect"
import { AgentStore } from "../agents/AgentStore.js"
import * as RunVersion from "../calls/RunVersion.js"
import { ImprovementGeneration } from "../improvements/ImprovementGeneration.js"
import { LanguageModel } from "../language-model/LanguageModel.js"
import type { LanguageModelError } from "../language-model/LanguageModelErrors.js"
import { ModelUnavailable } from "../language-model/LanguageModelErrors.js"
import * as ModelPricing from "../language-model/ModelPricing.js"
import { MinorUnits } from "../money/Money.js"
import { backgroundSpan, untraced } from "../observability/BackgroundSpans.js"
import { SecureRandom } from "../randomness/SecureRandom.js"
import type { Run } from "../runs/Run.js"
import { RunStore } from "../runs/RunStore.js"
import { Transactions } from "../storage/Transactions.js"
import * as ConversationLimits from "../conversation/ConversationLimits.js"
import * as InitialContextTemplate from "../templates/InitialContextTemplate.js"
import * as Transcripts from "../transcripts/Transcripts.js"
import { UsageStore } from "../usage/UsageStore.js"
import * as Webhooks from "../webhooks/Webhooks.js"
import { WebhookStore } from "../webhooks/WebhookStore.js"
import type { ClaimedAnalysisJob } from "./AnalysisJob.js"
import type { JobClaim } from "./AnalysisJobStore.js"
import { AnalysisJobStore } from "./AnalysisJobStore.js"
import * as AnalysisRequests from "./AnalysisRequests.js"
import * as AnalysisRetry from "./AnalysisRetry.js"
import { AnalysisSettings } from "./AnalysisSettings.js"
import * as CallAnalysis from "./CallAnalysis.js"

/** What became of a claimed job. */
export type JobOutcome =
  /** Its result is written (a run analysed, suggestions added) or there was nothing left to do. */
  | "done"
  /** It failed for good: the run's analysis is `failed`. */
  | "failed"
  /** It failed and waits for another attempt. */
  | "retried"
  /** Another server took the job over meanwhile (this one's lease ran out): nothing was written. */
  | "lost"

/**
 * The work after conversations, done by every server over one database, each job by exactly one: a
 * round claims due jobs (`AnalysisJobStore`, leases) and does them. A `call_analysis` asks the model for
 * the run's `call_analysis` and writes, in one transaction with the job's completion (only while this
 * server still holds it): the gathered data it found (values a runtime or a tool reported are kept), the
 * disposition, the summary, `analysis_status` `completed`, the tokens (on the run and as an `analysis`
 * ledger line) and a `call.analyzed` webhook; and, every `IMPROVEMENTS_EVERY_RUNS` analysed runs of an
 * agent, an `improvement_suggestions` job. A transient model failure is tried again with back-off
 * (`AnalysisRetry`); a job that fails for good marks the run's analysis `failed` with its reason (and says
 * so in `call.analyzed`). The run itself is never changed otherwise.
 */
export class RunAnalysis extends Context.Tag("@voice-agent-platform/core/RunAnalysis")<
  RunAnalysis,
  {
    /** One round: claims up to `jobsAtOnce` due jobs and does them; answers what became of each. */
    readonly round: Effect.Effect<ReadonlyArray<JobOutcome>>
  }
>() {}

export const make = Effect.gen(function* () {
  const jobs = yield* AnalysisJobStore
  const runs = yield* RunStore
  const agents = yield* AgentStore
  const transcripts = yield* Transcripts.Transcripts
  const model = yield* LanguageModel
  const transactions = yield* Transactions
  const ledger = yield* UsageStore
  const webhookStore = yield* WebhookStore
  const random = yield* SecureRandom
  const generation = yield* ImprovementGeneration
  // configuration is read when the layer is built
  const settings = yield* AnalysisSettings
  const price = yield* ModelPricing.ModelPricing

  const claimOf = (job: ClaimedAnalysisJob): JobClaim => ({
    organization_id: job.organization_id,
    id: job.id,
    lease: job.lease
  })

  const analysed = (run: Run) =>
    Webhooks.enqueue(run.organization_id, "call.analyzed", run).pipe(
      Effect.provideService(WebhookStore, webhookStore),
      Effect.provideService(SecureRandom, random)
    )

  /** The run's analysis failed for good: says why on the run and in `call.analyzed`, with the job's end. */
  const markFailed = (job: ClaimedAnalysisJob, reason: string) =>
    transactions.run(
      Effect.gen(function* () {
        if (!(yield* jobs.complete(claimOf(job)))) return "lost" as const
        if (job.run_id === null) return "failed" as const
        const run = yield* runs.findForUpdate(job.organization_id, job.run_id)
        if (Option.isNone(run) || run.value.analysis_status !== "pending") return "failed" as const
        const updated = yield* runs.update(job.organization_id, job.run_id, {
          analysis_status: "failed",
          analysis_error: reason
        })
        if (Option.isSome(updated)) yield* analysed(updated.value)
        return "failed" as const
      })
    )

  /** A failed attempt: tried again later, or given up. */
  const failed = (job: ClaimedAnalysisJob, error: LanguageModelError) =>
    Effect.gen(function* () {
      const { maxAttempts } = settings
      const now = new Date(yield* Clock.currentTimeMillis)
      const verdict = AnalysisRetry.decide(error, job.attempts, maxAttempts, now)
      yield* Effect.logWarning(`${job.kind} failed: ${error.message}`).pipe(
        Effect.annotateLogs({
          organization_id: job.organization_id,
          run_id: job.run_id,
          agent_id: job.agent_id
        })
      )
      if (verdict._tag === "GiveUp") return yield* markFailed(job, error.message)
      return (yield* jobs.retry(claimOf(job), verdict.at, error.message))
        ? ("retried" as const)
        : ("lost" as const)
    })

  /** Nothing left to do (the run went, or was analysed already): the job goes. */
  const drop = (job: ClaimedAnalysisJob) =>
    Effect.map(jobs.complete(claimOf(job)), (held) => (held ? ("done" as const) : ("lost" as const)))

  const analyseRun = (job: ClaimedAnalysisJob) =>
    Effect.gen(function* () {
      if (job.run_id === null) return yield* drop(job)
      const found = yield* runs.find(job.organization_id, job.run_id)
      if (Option.isNone(found) || found.value.analysis_status !== "pending") return yield* drop(job)
      const run = found.value
      const transcript = yield* Effect.either(transcripts.read(run.organization_id, run.workflow_run_id))
      if (transcript._tag === "Left") {
        return yield* markFailed(job, `the transcript is not available (${transcript.left.message})`)
      }
      const { agent, definition } = yield* RunVersion.versionOf(agents, run)
      const request = AnalysisRequests.callAnalysis({
        runId: run.workflow_run_id,
        agent,
        definition,
        system_prompt: InitialContextTemplate.renderBounded(
          definition.workflow_definition.system_prompt,
          run.initial_context,
          ConversationLimits.systemPromptChars
        ),
        fragments: transcript.right.fragments
      })
      const reply = yield* Effect.either(model.structured(request))
      if (reply._tag === "Left") return yield* failed(job, reply.left)
      const { improvementsEveryRuns } = settings
      const now = new Date(yield* Clock.currentTimeMillis)
      return yield* transactions.run(
        Effect.gen(function* () {
          if (!(yield* jobs.complete(claimOf(job)))) return "lost" as const
          const current = yield* runs.findForUpdate(run.organization_id, run.workflow_run_id)
          if (Option.isNone(current) || current.value.analysis_status !== "pending") return "done" as const
          const result = CallAnalysis.apply(current.value, reply.right.value)
          const cost = ModelPricing.cost(reply.right.usage, price)
          yield* runs.update(run.organization_id, run.workflow_run_id, {
            gathered_context: result.gathered_context,
            disposition: result.disposition,
            summary: result.summary,
            analysis_status: "completed",
            analysis_error: null,
            model_cost: MinorUnits.make((current.value.model_cost ?? 0) + cost)
          })
          const updated = yield* runs.addModelUsage(
            run.organization_id,
            run.workflow_run_id,
            reply.right.usage
          )
          yield* ledger.record({
            organization_id: run.organization_id,
            kind: "analysis",
            run_id: run.workflow_run_id,
            agent_id: run.workflow_id,
            mode: run.mode,
            duration_seconds: 0,
            cost,
            prompt_tokens: reply.right.usage.prompt_tokens,
            completion_tokens: reply.right.usage.completion_tokens,
            currency: run.currency,
            recorded_at: now
          })
          if (Option.isSome(updated)) yield* analysed(updated.value)
          const count = yield* jobs.countAnalysed(run.organization_id, run.workflow_id)
          if (improvementsEveryRuns > 0 && count % improvementsEveryRuns === 0) {
            yield* jobs.enqueue(
              [
                {
                  organization_id: run.organization_id,
                  kind: "improvement_suggestions",
                  run_id: null,
                  agent_id: run.workflow_id
                }
              ],
              now
            )
          }
          return "done" as const
        })
      )
    })

  const improve = (job: ClaimedAnalysisJob) =>
    Effect.gen(function* () {
      const agent = yield* agents.find(job.organization_id, { _tag: "Number", id: job.agent_id })
      if (Option.isNone(agent)) return yield* drop(job)
      const added = yield* Effect.either(generation.generate(agent.value))
      if (added._tag === "Left") return yield* failed(job, added.left)
      return yield* drop(job)
    })

  /** One job; a defect (a bug, storage down) is logged and the job tried again after the first back-off. */
  const run = (job: ClaimedAnalysisJob): Effect.Effect<JobOutcome> =>
    (job.kind === "call_analysis" ? analyseRun(job) : improve(job)).pipe(
      // the server shuts down mid-job: the job is given back at once, not left until its lease runs out
      Effect.onInterrupt(() =>
        jobs.release(claimOf(job)).pipe(
          // not given back: its lease runs out and another round takes it then
          Effect.catchAllCause((cause) =>
            Effect.logWarning(`${job.kind} job not given back at shutdown`, cause)
          )
        )
      ),
      Effect.withSpan(`RunAnalysis.${job.kind}`, {
        attributes: {
          organization_id: job.organization_id,
          run_id: job.run_id ?? undefined,
          agent_id: job.agent_id
        },
        captureStackTrace: false
      }),
      Effect.catchAllCause((cause) =>
        Effect.gen(function* () {
          // stopped from within (not the server shutting down, see above): another server takes it over
          if (Cause.isInterruptedOnly(cause)) return "lost" as const
          yield* Effect.logError(`${job.kind} stopped by an internal error`, cause).pipe(
            Effect.annotateLogs({ organization_id: job.organization_id, run_id: job.run_id })
          )
          // an internal error counts as an attempt, waits as a model failure does, and gives up at the last
          // (a transcript that does not parse, an answer the database refuses: they fail every time)
          const now = new Date(yield* Clock.currentTimeMillis)
          const verdict = AnalysisRetry.decide(
            new ModelUnavailable({ reason: "an internal error" }),
            job.attempts,
            settings.maxAttempts,
            now
          )
          const next =
            verdict._tag === "GiveUp"
              ? markFailed(job, "the analysis failed with an internal error")
              : Effect.map(jobs.retry(claimOf(job), verdict.at, "internal error"), (held) =>
                  held ? ("retried" as const) : ("lost" as const)
                )
          // not recorded: its lease runs out and another round takes it then
          return yield* next.pipe(
            Effect.catchAllCause((cause) =>
              Effect.as(Effect.logError(`${job.kind} job's retry not recorded`, cause), "lost" as const)
            )
          )
        })
      )
    )

  const round = Effect.gen(function* () {
    const { jobsAtOnce, leaseSeconds } = settings
    const now = yield* Clock.currentTimeMillis
    const lease = globalThis.crypto.randomUUID()
    const claimed = yield* untraced(
      jobs.claim(new Date(now), new Date(now + leaseSeconds * 1000), lease, jobsAtOnce)
    )
    if (claimed.length === 0) return []
    return yield* Effect.forEach(claimed, run, { concurrency: "unbounded" }).pipe(
      backgroundSpan("RunAnalysis.round", { claimed: claimed.length })
    )
  })

  return RunAnalysis.of({ round })
})

/** The analysis service over the stores, files, a language model and `ImprovementGeneration`. */
export const layer = Layer.effect(RunAnalysis, make)

/**
 * The analysis in the background: a round every `pollMillis` (by the `Clock`), and another at once after a
 * round that found as many jobs as it could take, for as long as the layer lives. A round that fails
 * unexpectedly is logged and the next goes on.
 */
export const layerWorker: Layer.Layer<never, never, RunAnalysis> = Layer.scopedDiscard(
  Effect.gen(function* () {
    const analysis = yield* RunAnalysis
    const { jobsAtOnce, pollMillis } = yield* AnalysisSettings
    const drain: Effect.Effect<void> = Effect.flatMap(
      analysis.round.pipe(
        Effect.catchAllCause((cause) => Effect.as(Effect.logError("analysis round failed", cause), []))
      ),
      (outcomes) => (outcomes.length >= jobsAtOnce ? drain : Effect.void)
    )
    yield* drain.pipe(Effect.repeat(Schedule.spaced(Duration.millis(pollMillis))), Effect.forkScoped)
  })
)
