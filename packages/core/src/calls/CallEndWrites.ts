import { Effect } from "effect"
import { AnalysisJobStore } from "../analysis/AnalysisJobStore.js"
import * as ModelPricing from "../language-model/ModelPricing.js"
import * as CampaignAttempts from "../campaigns/CampaignAttempts.js"
import { CampaignStore } from "../campaigns/CampaignStore.js"
import { SecureRandom } from "../randomness/SecureRandom.js"
import type { Run } from "../runs/Run.js"
import type { RunEnd } from "../runs/RunStore.js"
import { RunStore } from "../runs/RunStore.js"
import * as Transcripts from "../transcripts/Transcripts.js"
import { UsageStore } from "../usage/UsageStore.js"
import * as Webhooks from "../webhooks/Webhooks.js"
import { WebhookStore } from "../webhooks/WebhookStore.js"
import type { EndStatus } from "./CallEnd.js"
import * as CallCost from "./CallCost.js"
import { CallFragmentStore } from "./CallFragmentStore.js"
import { CallRates } from "./CallRates.js"
import { MinorUnits } from "../money/Money.js"
import { ChannelStore } from "./ChannelStore.js"

/** A live run (held by the caller's transaction) whose call ended `status` after `reportedSeconds`. */
export interface EndToWrite {
  readonly run: Run
  readonly status: EndStatus
  readonly reportedSeconds: number
}

/** Transcript files one batch of ends saves at a time. */
export const transcriptsAtOnce = 8

/** `run`'s key in maps of runs of several organizations. */
export const runKey = (run: { readonly organization_id: number; readonly workflow_run_id: number }) =>
  `${run.organization_id}:${run.workflow_run_id}`

/**
 * What a run's talk time costs: a call's at `CallRates`; a chat's nothing (no line is held: a chat is
 * charged for its language-model tokens only).
 */
const talkCost = (run: Run, durationSeconds: number, rate: CallRates["Type"]) =>
  run.mode === "chat" ? MinorUnits.make(0) : CallCost.compute(durationSeconds, rate)

/**
 * What calls' ends write, for one call or many at once, inside the caller's transaction (which holds
 * the runs): each call's transcript (only for a run that kept fragments), its final state (status,
 * whole-second duration, cost at `CallRates`, the charge for its conversation's model tokens at
 * `ModelPricing`, `ended_at`), its channel given back, its `call` line in the billing ledger (one per call,
 * also for one nobody answered: 0 s, 0 PLN), its analysis (a `call_analysis` job when it had a
 * conversation, a transcript; `analysis_status` `pending`, else `skipped`), its `call.ended` webhook
 * deliveries, and its campaign attempt's move (`CampaignAttempts.runsEnded`). Each of those but the
 * transcript is one statement for the whole set (the webhooks' subscribers one per organization), so ends
 * written together cost little more than one; a transcript costs its run a read, a file and a delete
 * (`transcriptsAtOnce` files at a time). Answers the ended runs in the order of `ends`.
 */
export const make = Effect.gen(function* () {
  const runStore = yield* RunStore
  const transcripts = yield* Transcripts.Transcripts
  const fragments = yield* CallFragmentStore
  const channels = yield* ChannelStore
  const ledger = yield* UsageStore
  const rate = yield* CallRates
  const webhookStore = yield* WebhookStore
  const random = yield* SecureRandom
  const campaigns = yield* CampaignStore
  const analysisJobs = yield* AnalysisJobStore
  const modelPrice = yield* ModelPricing.ModelPricing

  return (ends: ReadonlyArray<EndToWrite>, now: Date) =>
    Effect.gen(function* () {
      if (ends.length === 0) return []
      // a run no fragment was kept for (most campaign calls' ends) has none to read; the others' files
      // are saved side by side (file storage may be remote), not one after another while all are held
      const spoken = (yield* Effect.forEach(
        ends.filter(({ run }) => run.fragments_kept),
        ({ run }) =>
          Effect.gen(function* () {
            const kept = yield* fragments.list(run.organization_id, run.workflow_run_id)
            if (kept.length === 0) return []
            yield* transcripts.save(run.organization_id, run.workflow_run_id, kept)
            return [run]
          }),
        { concurrency: transcriptsAtOnce }
      )).flat()
      const conversed = new Set(spoken.map(runKey))
      const writes = ends.map(({ reportedSeconds, run, status }): RunEnd => {
        const duration = CallCost.wholeSeconds(reportedSeconds)
        return {
          organization_id: run.organization_id,
          workflow_run_id: run.workflow_run_id,
          status,
          duration_seconds: duration,
          cost: talkCost(run, duration, rate),
          model_cost: ModelPricing.cost(
            { prompt_tokens: run.model_prompt_tokens, completion_tokens: run.model_completion_tokens },
            modelPrice
          ),
          analysis_status: conversed.has(runKey(run)) ? "pending" : "skipped",
          ended_at: now
        }
      })
      const written = new Map((yield* runStore.endMany(writes)).map((run) => [runKey(run), run]))
      const ended: Array<Run> = []
      for (const { run } of ends) {
        const done = written.get(runKey(run))
        // the caller's transaction holds every run: one missing is a broken store, not a caller's mistake
        if (done === undefined) return yield* Effect.dieMessage(`run ${run.workflow_run_id} was not ended`)
        ended.push(done)
      }
      const held = ends.flatMap(({ run }) =>
        run.channel_reservation_id === null
          ? []
          : [{ organization_id: run.organization_id, id: run.channel_reservation_id }]
      )
      if (held.length > 0) yield* channels.releaseMany(held)
      yield* ledger.recordMany(
        ended.map((run, i) => ({
          organization_id: run.organization_id,
          kind: "call" as const,
          run_id: run.workflow_run_id,
          agent_id: run.workflow_id,
          mode: run.mode,
          duration_seconds: writes[i]!.duration_seconds,
          cost: MinorUnits.make(writes[i]!.cost + writes[i]!.model_cost),
          prompt_tokens: run.model_prompt_tokens,
          completion_tokens: run.model_completion_tokens,
          currency: run.currency,
          recorded_at: now
        }))
      )
      // every run that had a conversation is read by the model once, by whichever server claims the job
      const toAnalyse = ended.filter((run) => run.analysis_status === "pending")
      if (toAnalyse.length > 0) {
        yield* analysisJobs.enqueue(
          toAnalyse.map((run) => ({
            organization_id: run.organization_id,
            kind: "call_analysis" as const,
            run_id: run.workflow_run_id,
            agent_id: run.workflow_id
          })),
          now
        )
      }
      // none kept meanwhile (each run's events take turns on its row): nothing else to clear
      for (const run of spoken) yield* fragments.clear(run.organization_id, run.workflow_run_id)
      yield* Webhooks.enqueueEach("call.ended", ended).pipe(
        Effect.provideService(WebhookStore, webhookStore),
        Effect.provideService(SecureRandom, random)
      )
      // campaigns' attempts move on in this same transaction, their totals added without holding the
      // campaigns' rows (see CampaignAttempts.runsEnded)
      yield* CampaignAttempts.runsEnded(ended, now).pipe(Effect.provideService(CampaignStore, campaigns))
      return ended
    })
})
