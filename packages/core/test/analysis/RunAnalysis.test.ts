import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Option, TestClock } from "effect"
import { Agents } from "../../src/agents/Agents.js"
import { AnalysisJobStore } from "../../src/analysis/AnalysisJobStore.js"
import * as AnalysisSettings from "../../src/analysis/AnalysisSettings.js"
import { RunAnalysis } from "../../src/analysis/RunAnalysis.js"
import { Chats } from "../../src/chat/Chats.js"
import { ImprovementStore } from "../../src/improvements/ImprovementStore.js"
import type { StructuredRequest } from "../../src/language-model/LanguageModel.js"
import { ModelRefused, ModelUnavailable } from "../../src/language-model/LanguageModelErrors.js"
import * as ModelPricing from "../../src/language-model/ModelPricing.js"
import type { OrganizationId } from "../../src/organizations/Organization.js"
import type { RunId } from "../../src/runs/RunId.js"
import { RunStore } from "../../src/runs/RunStore.js"
import { Runs } from "../../src/runs/Runs.js"
import { UsageStore } from "../../src/usage/UsageStore.js"
import { Webhooks } from "../../src/webhooks/Webhooks.js"
import { ModelScript, fail, never, object, text } from "../conversation/ScriptedModel.js"
import * as ChatTesting from "../chat/ChatTesting.js"

const stored = (organizationId: OrganizationId, runId: RunId) =>
  Effect.flatMap(RunStore, (runs) => runs.find(organizationId, runId)).pipe(Effect.map(Option.getOrThrow))

/** An agent with disposition codes, a webhook endpoint, and one of its chats talked and ended. */
const endedChat = Effect.gen(function* () {
  const { agent, organization } = yield* ChatTesting.organizationWithAgent
  yield* (yield* Agents).update(organization.id, agent.public_id, {
    call_disposition_codes: { confirmed: "The appointment is confirmed", declined: "The person declined" }
  })
  const endpoint = yield* (yield* Webhooks).create(organization.id, { url: "https://hooks.example.com/in" })
  const run = yield* ChatTesting.chat(organization.id, agent.public_id)
  yield* ChatTesting.send(organization.id, agent.public_id, run.workflow_run_id)
  yield* (yield* ModelScript).push(text("Thank you, noted."))
  yield* ChatTesting.send(
    organization.id,
    agent.public_id,
    run.workflow_run_id,
    "My email is ola@example.com"
  )
  // a value a runtime or tool reported before the analysis is kept
  yield* (yield* RunStore).update(organization.id, run.workflow_run_id, {
    gathered_context: { preferred_time: "10:00" }
  })
  yield* (yield* Chats).end(organization.id, agent.public_id, run.workflow_run_id)
  return { organization, agent, run, endpoint }
})

const analysis = {
  gathered_data: { email: "ola@example.com", preferred_time: "11:00" },
  disposition: "confirmed",
  summary: "  The person confirmed and gave their e-mail.  "
}

const deliveredTypes = (organizationId: OrganizationId, endpointId: string) =>
  Effect.flatMap(Webhooks, (webhooks) =>
    webhooks.deliveries(organizationId, endpointId, { page: 1, limit: 50 })
  ).pipe(Effect.map((page) => page.items.map((d) => d.event_type)))

describe("RunAnalysis", () => {
  it.effect(
    "analyses an ended chat once: gathered data (reported values kept), disposition, summary, tokens, ledger, call.analyzed",
    () =>
      Effect.gen(function* () {
        const { agent, endpoint, organization, run } = yield* endedChat
        expect((yield* stored(organization.id, run.workflow_run_id)).analysis_status).toBe("pending")
        yield* (yield* ModelScript).push(object(analysis))
        expect(yield* (yield* RunAnalysis).round).toEqual(["done"])
        const after = yield* stored(organization.id, run.workflow_run_id)
        expect(after).toMatchObject({
          analysis_status: "completed",
          analysis_error: null,
          gathered_context: { email: "ola@example.com", preferred_time: "10:00" },
          disposition: "confirmed",
          summary: "The person confirmed and gave their e-mail.",
          model_prompt_tokens: 110,
          model_completion_tokens: 25,
          // 1 grosz (rounded up) for the conversation when it ended, 1 for the analysis
          model_cost: 2
        })
        const sent = (yield* Effect.flatten(Effect.map(ModelScript, (s) => s.requests))).at(-1)!
        expect(sent.kind).toBe("structured")
        const request = sent.request as StructuredRequest<unknown, unknown>
        expect(request.name).toBe("call_analysis")
        expect(request.guide?.transcripts).toEqual([
          {
            run_id: run.workflow_run_id,
            turns: [
              { role: "assistant", text: "Hello , this is Ada." },
              { role: "user", text: "My email is ola@example.com" },
              { role: "assistant", text: "Thank you, noted." }
            ]
          }
        ])
        expect(request.guide?.disposition_codes).toEqual({
          confirmed: "The appointment is confirmed",
          declined: "The person declined"
        })
        const lines = yield* (yield* UsageStore).list(organization.id, {}, { page: 1, limit: 10 })
        expect(
          lines.items.map((l) => [l.kind, l.run_id, l.prompt_tokens, l.completion_tokens]).sort()
        ).toEqual(
          [
            ["analysis", run.workflow_run_id, 100, 20],
            ["call", run.workflow_run_id, 10, 5]
          ].sort()
        )
        expect(yield* deliveredTypes(organization.id, endpoint.id)).toContain("call.analyzed")
        // nothing is left to do, and nothing is done twice
        expect(yield* (yield* RunAnalysis).round).toEqual([])
        expect(agent.id).toBeDefined()
      }).pipe(
        Effect.provide(ChatTesting.layer),
        Effect.provide(ModelPricing.layer({ pln_per_mtok_in: 0.5, pln_per_mtok_out: 1 }))
      )
  )

  it.effect("tries a transient failure again after its back-off, and gives up on a refusal at once", () =>
    Effect.gen(function* () {
      const { endpoint, organization, run } = yield* endedChat
      const script = yield* ModelScript
      const analysisRound = (yield* RunAnalysis).round
      yield* script.push(fail(new ModelUnavailable({ reason: "the provider answered 503" })))
      expect(yield* analysisRound).toEqual(["retried"])
      expect(yield* analysisRound).toEqual([])
      yield* TestClock.adjust("9 seconds")
      expect(yield* analysisRound).toEqual([])
      yield* TestClock.adjust("1 second")
      yield* script.push(fail(new ModelRefused({ reason: "content policy" })))
      expect(yield* analysisRound).toEqual(["failed"])
      expect(yield* stored(organization.id, run.workflow_run_id)).toMatchObject({
        analysis_status: "failed",
        analysis_error: "model_refused: content policy",
        disposition: null,
        summary: null,
        status: "completed"
      })
      expect(yield* deliveredTypes(organization.id, endpoint.id)).toContain("call.analyzed")
      expect(yield* (yield* AnalysisJobStore).waiting).toBe(0)
    }).pipe(Effect.provide(ChatTesting.layer))
  )

  it.effect("gives up after the last attempt of a failure that stays transient", () =>
    Effect.gen(function* () {
      const { organization, run } = yield* endedChat
      const script = yield* ModelScript
      const analysisRound = (yield* RunAnalysis).round
      const outcomes: Array<string> = []
      for (let i = 0; i < AnalysisSettings.defaults.maxAttempts; i++) {
        yield* script.push(fail(new ModelUnavailable({ reason: "down" })))
        outcomes.push(...(yield* analysisRound))
        yield* TestClock.adjust("1 hour")
      }
      expect(outcomes).toEqual(["retried", "retried", "retried", "retried", "failed"])
      expect((yield* stored(organization.id, run.workflow_run_id)).analysis_status).toBe("failed")
    }).pipe(Effect.provide(ChatTesting.layer))
  )

  it.effect("gives a job back at once when its round is stopped (the server shuts down), as it was", () =>
    Effect.gen(function* () {
      const { organization, run } = yield* endedChat
      const analysisRound = (yield* RunAnalysis).round
      yield* (yield* ModelScript).push(never)
      const stopped = yield* Effect.fork(analysisRound)
      // the model was asked: the job is held, and no other round can claim it
      yield* Effect.repeat(
        Effect.zipRight(
          Effect.yieldNow(),
          Effect.flatMap(ModelScript, (s) => s.requests)
        ),
        { until: (sent) => sent.some((r) => r.kind === "structured") }
      )
      expect(yield* analysisRound).toEqual([])
      yield* Fiber.interrupt(stopped)
      // given back: claimed at once by the next round, its lease not waited for
      yield* (yield* ModelScript).push(object(analysis))
      expect(yield* analysisRound).toEqual(["done"])
      expect((yield* stored(organization.id, run.workflow_run_id)).analysis_status).toBe("completed")
    }).pipe(Effect.provide(ChatTesting.layer))
  )

  it.effect("a run deleted before its analysis takes its job with it", () =>
    Effect.gen(function* () {
      const { agent, organization, run } = yield* endedChat
      yield* (yield* Runs).delete(organization.id, agent.public_id, run.workflow_run_id)
      expect(yield* (yield* AnalysisJobStore).waiting).toBe(0)
      expect(yield* (yield* RunAnalysis).round).toEqual([])
      expect(
        (yield* Effect.flatten(Effect.map(ModelScript, (s) => s.requests))).filter(
          (s) => s.kind === "structured"
        )
      ).toEqual([])
    }).pipe(Effect.provide(ChatTesting.layer))
  )

  it.effect("skips a chat that ended before anything was said", () =>
    Effect.gen(function* () {
      const { agent, organization } = yield* ChatTesting.organizationWithAgent
      const run = yield* ChatTesting.chat(organization.id, agent.public_id)
      yield* (yield* Chats).end(organization.id, agent.public_id, run.workflow_run_id)
      expect((yield* stored(organization.id, run.workflow_run_id)).analysis_status).toBe("skipped")
      expect(yield* (yield* RunAnalysis).round).toEqual([])
    }).pipe(Effect.provide(ChatTesting.layer))
  )

  it.effect(
    "generates improvement suggestions every IMPROVEMENTS_EVERY_RUNS analysed runs, none repeated",
    () =>
      Effect.gen(function* () {
        const first = yield* endedChat
        const script = yield* ModelScript
        const analysisRound = (yield* RunAnalysis).round
        yield* script.push(object(analysis))
        expect(yield* analysisRound).toEqual(["done"])
        // a second run of the same agent: the second analysed run makes a generation due
        const run = yield* ChatTesting.chat(first.organization.id, first.agent.public_id)
        yield* ChatTesting.send(first.organization.id, first.agent.public_id, run.workflow_run_id)
        yield* script.push(text("Sure."))
        yield* ChatTesting.send(
          first.organization.id,
          first.agent.public_id,
          run.workflow_run_id,
          "What is the price?"
        )
        yield* (yield* Chats).end(first.organization.id, first.agent.public_id, run.workflow_run_id)
        yield* script.push(object(analysis))
        expect(yield* analysisRound).toEqual(["done"])
        const suggestion = {
          text: "State the price when asked.",
          rationale: "The price was asked",
          source_run_id: run.workflow_run_id
        }
        yield* script.push(
          object({
            suggestions: [
              suggestion,
              { ...suggestion, source_run_id: 1 },
              { text: " ", rationale: "", source_run_id: null }
            ]
          })
        )
        expect(yield* analysisRound).toEqual(["done"])
        const pending = yield* (yield* ImprovementStore).list(
          first.organization.id,
          first.agent.id,
          { status: "pending" },
          { page: 1, limit: 10 }
        )
        expect(pending.items.map((i) => [i.text, i.rationale, i.source_run_id])).toEqual([
          ["State the price when asked.", "The price was asked", run.workflow_run_id]
        ])
        const request = (yield* Effect.flatten(Effect.map(ModelScript, (s) => s.requests))).at(-1)!
          .request as StructuredRequest<unknown, unknown>
        expect(request.name).toBe("improvement_suggestions")
        expect(request.guide?.transcripts.map((t) => t.run_id).sort()).toEqual(
          [first.run.workflow_run_id, run.workflow_run_id].sort()
        )
        const lines = yield* (yield* UsageStore).list(first.organization.id, {}, { page: 1, limit: 10 })
        expect(lines.items.filter((l) => l.kind === "improvements").map((l) => l.run_id)).toEqual([null])
      }).pipe(
        Effect.provide(ChatTesting.layer),
        Effect.provide(AnalysisSettings.layer({ improvementsEveryRuns: 2 }))
      )
  )
})
