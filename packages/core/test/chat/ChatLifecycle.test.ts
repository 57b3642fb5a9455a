import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Fiber, Option, TestClock } from "effect"
import { CallFragmentStore } from "../../src/calls/CallFragmentStore.js"
import { ChatEnds } from "../../src/chat/ChatEnds.js"
import { Chats } from "../../src/chat/Chats.js"
import * as ConversationLimits from "../../src/conversation/ConversationLimits.js"
import {
  ModelRateLimited,
  ModelRefused,
  ModelUnavailable
} from "../../src/language-model/LanguageModelErrors.js"
import { UsageStore } from "../../src/usage/UsageStore.js"
import { Agents } from "../../src/agents/Agents.js"
import { Runs } from "../../src/runs/Runs.js"
import * as ChatTesting from "./ChatTesting.js"
import { ModelScript, calls, fail, text } from "../conversation/ScriptedModel.js"

describe("Chats: failures, refusals, turns and ends", () => {
  it.effect(
    "a model that stays unavailable after one retry keeps nothing of the message, which may be sent again",
    () =>
      Effect.gen(function* () {
        const { agent, organization } = yield* ChatTesting.organizationWithAgent
        const run = yield* ChatTesting.chat(organization.id, agent.public_id)
        yield* ChatTesting.send(organization.id, agent.public_id, run.workflow_run_id)
        const script = yield* ModelScript
        const down = new ModelUnavailable({ reason: "the provider answered 500" })
        yield* script.push(fail(down), fail(down))
        const fiber = yield* Effect.fork(
          Effect.either(ChatTesting.send(organization.id, agent.public_id, run.workflow_run_id, "Hello?"))
        )
        yield* TestClock.adjust("1 second")
        const refused = yield* Fiber.join(fiber)
        expect(Either.isLeft(refused) && refused.left).toEqual(down)
        expect((yield* Effect.flatten(Effect.map(ModelScript, (s) => s.requests))).length).toBe(2)
        const kept = yield* (yield* CallFragmentStore).list(organization.id, run.workflow_run_id)
        expect(kept.map((f) => f.role)).toEqual(["assistant"])
        yield* script.push(text("Hi!"))
        const { reply } = yield* ChatTesting.send(
          organization.id,
          agent.public_id,
          run.workflow_run_id,
          "Hello?"
        )
        expect(reply.reply.text).toBe("Hi!")
      }).pipe(Effect.provide(ChatTesting.layer))
  )

  it.effect(
    "a rate limit of at most 2 s is waited out once; a reply cut after its first words is not tried again",
    () =>
      Effect.gen(function* () {
        const { agent, organization } = yield* ChatTesting.organizationWithAgent
        const run = yield* ChatTesting.chat(organization.id, agent.public_id)
        const script = yield* ModelScript
        yield* script.push(
          fail(new ModelRateLimited({ reason: "429", retry_after_ms: 1500 })),
          text("Hello.")
        )
        const fiber = yield* Effect.fork(
          ChatTesting.send(organization.id, agent.public_id, run.workflow_run_id, "Hi")
        )
        yield* TestClock.adjust("1499 millis")
        expect(Option.isNone(yield* Fiber.poll(fiber))).toBe(true)
        yield* TestClock.adjust("1 millis")
        expect((yield* Fiber.join(fiber)).reply.reply.text).toBe("Hello.")
        const cut = new ModelUnavailable({ reason: "the stream broke" })
        yield* script.push({ _tag: "FailAfter", text: "It is", error: cut })
        const broken = yield* Effect.either(
          ChatTesting.send(organization.id, agent.public_id, run.workflow_run_id, "And?")
        )
        expect(Either.isLeft(broken) && broken.left).toEqual(cut)
        expect((yield* Effect.flatten(Effect.map(ModelScript, (s) => s.requests))).length).toBe(3)
        // the cut reply's tokens were never counted by the provider: estimated (4 characters a token) and kept
        const before = yield* ChatTesting.stored(organization.id, run.workflow_run_id)
        expect(before.model_completion_tokens).toBe(5 + Math.ceil("It is".length / 4))
        expect(before.model_prompt_tokens).toBeGreaterThan(10)
      }).pipe(Effect.provide(ChatTesting.layer))
  )

  it.effect("refuses: another agent's run, a run that is not a chat, no text once started", () =>
    Effect.gen(function* () {
      const { agent, organization } = yield* ChatTesting.organizationWithAgent
      const other = yield* ChatTesting.organizationWithAgent
      const run = yield* ChatTesting.chat(organization.id, agent.public_id)
      const browser = yield* Effect.flatMap(Runs, (runs) =>
        runs.createConversation(organization.id, agent.public_id, { mode: "webrtc" })
      )
      const tag = <A, E extends { _tag: string }, R>(effect: Effect.Effect<A, E, R>) =>
        Effect.map(Effect.either(effect), (result) => (Either.isLeft(result) ? result.left._tag : "ok"))
      expect(
        yield* tag(ChatTesting.send(other.organization.id, other.agent.public_id, run.workflow_run_id, "Hi"))
      ).toBe("RunNotFound")
      expect(
        yield* tag(ChatTesting.send(organization.id, agent.public_id, browser.workflow_run_id, "Hi"))
      ).toBe("NotAChat")
      yield* ChatTesting.send(organization.id, agent.public_id, run.workflow_run_id)
      expect(yield* tag(ChatTesting.send(organization.id, agent.public_id, run.workflow_run_id))).toBe(
        "TextRequired"
      )
    }).pipe(Effect.provide(ChatTesting.layer))
  )

  it.effect("two messages at once are answered one after the other, never interleaved", () =>
    Effect.gen(function* () {
      const { agent, organization } = yield* ChatTesting.organizationWithAgent
      const run = yield* ChatTesting.chat(organization.id, agent.public_id)
      yield* ChatTesting.send(organization.id, agent.public_id, run.workflow_run_id)
      yield* (yield* ModelScript).push(text("First answer."), text("Second answer."))
      yield* Effect.all(
        [
          ChatTesting.send(organization.id, agent.public_id, run.workflow_run_id, "First"),
          ChatTesting.send(organization.id, agent.public_id, run.workflow_run_id, "Second")
        ],
        { concurrency: "unbounded" }
      )
      const listed = yield* (yield* Chats).messages(organization.id, agent.public_id, run.workflow_run_id)
      expect(listed.messages.map((m) => m.text)).toEqual([
        "Hello , this is Ada.",
        "First",
        "First answer.",
        "Second",
        "Second answer."
      ])
      // the second reply was asked with the first exchange in its history
      expect(
        (yield* ChatTesting.streamed(1)).messages.slice(1).map((m) => (m as { content: string }).content)
      ).toEqual(["Hello , this is Ada.", "First", "First answer.", "Second"])
    }).pipe(Effect.provide(ChatTesting.layer))
  )

  it.effect("end ends a chat completed; one that never started is canceled; ending twice is refused", () =>
    Effect.gen(function* () {
      const { agent, organization } = yield* ChatTesting.organizationWithAgent
      const chats = yield* Chats
      const run = yield* ChatTesting.chat(organization.id, agent.public_id)
      yield* ChatTesting.send(organization.id, agent.public_id, run.workflow_run_id)
      yield* TestClock.adjust("12 seconds")
      const ended = yield* chats.end(organization.id, agent.public_id, run.workflow_run_id)
      expect(ended).toMatchObject({ status: "completed", duration_seconds: 12, analysis_status: "pending" })
      const again = yield* Effect.either(chats.end(organization.id, agent.public_id, run.workflow_run_id))
      expect(Either.isLeft(again) && again.left._tag).toBe("ConversationEnded")
      const unused = yield* ChatTesting.chat(organization.id, agent.public_id)
      expect(yield* chats.end(organization.id, agent.public_id, unused.workflow_run_id)).toMatchObject({
        status: "canceled",
        duration_seconds: 0,
        analysis_status: "skipped"
      })
    }).pipe(Effect.provide(ChatTesting.layer))
  )

  it.effect("a chat idle for CHAT_IDLE_SECONDS ends by itself, its talk time up to its last message", () =>
    Effect.gen(function* () {
      const { agent, organization } = yield* ChatTesting.organizationWithAgent
      const run = yield* ChatTesting.chat(organization.id, agent.public_id)
      yield* ChatTesting.send(organization.id, agent.public_id, run.workflow_run_id)
      yield* TestClock.adjust("5 seconds")
      yield* ChatTesting.send(organization.id, agent.public_id, run.workflow_run_id, "Hi")
      const ends = yield* ChatEnds
      yield* TestClock.adjust("599 seconds")
      expect(yield* ends.endIdle).toEqual([])
      yield* TestClock.adjust("2 seconds")
      expect(yield* ends.endIdle).toEqual([run.workflow_run_id])
      const after = yield* ChatTesting.stored(organization.id, run.workflow_run_id)
      expect(after).toMatchObject({ status: "completed", duration_seconds: 5 })
      expect(after.logs.map((l) => l.message)).toContain("The chat ended after 600 s without a message")
    }).pipe(Effect.provide(ChatTesting.layer))
  )

  it.effect(
    "the tokens of a reply that failed are counted, and billed when the idle chat ends unstarted",
    () =>
      Effect.gen(function* () {
        const { agent, organization } = yield* ChatTesting.organizationWithAgent
        const weather = yield* ChatTesting.tool(organization.id, "Weather", {
          type: "http_api",
          config: { method: "GET", url: "https://weather.example.com/now" }
        })
        yield* (yield* Agents).update(organization.id, agent.public_id, {
          definition: { tools: [weather.tool_uuid] }
        })
        const run = yield* ChatTesting.chat(organization.id, agent.public_id)
        const refused = new ModelRefused({ reason: "content policy" })
        // the first request answered (its tokens spent), the second was refused
        yield* (yield* ModelScript).push(
          calls([["weather", {}]], "", { prompt_tokens: 70, completion_tokens: 9 }),
          fail(refused)
        )
        const failed = yield* Effect.either(
          ChatTesting.send(organization.id, agent.public_id, run.workflow_run_id, "Hi")
        )
        expect(Either.isLeft(failed) && failed.left).toEqual(refused)
        const counted = yield* ChatTesting.stored(organization.id, run.workflow_run_id)
        expect(counted).toMatchObject({
          status: "initialized",
          model_prompt_tokens: 70,
          model_completion_tokens: 9
        })
        yield* TestClock.adjust("601 seconds")
        expect(yield* (yield* ChatEnds).endIdle).toEqual([run.workflow_run_id])
        expect(yield* ChatTesting.stored(organization.id, run.workflow_run_id)).toMatchObject({
          status: "canceled",
          analysis_status: "skipped"
        })
        const lines = yield* (yield* UsageStore).list(organization.id, {}, { page: 1, limit: 10 })
        expect(lines.items.map((l) => [l.kind, l.prompt_tokens, l.completion_tokens])).toEqual([
          ["call", 70, 9]
        ])
      }).pipe(Effect.provide(ChatTesting.layer))
  )

  it.effect(`takes at most ${ConversationLimits.maxUserTurns} messages`, () =>
    Effect.gen(function* () {
      const { agent, organization } = yield* ChatTesting.organizationWithAgent
      const run = yield* ChatTesting.chat(organization.id, agent.public_id)
      for (let i = 0; i < ConversationLimits.maxUserTurns; i++) {
        yield* ChatTesting.send(organization.id, agent.public_id, run.workflow_run_id, `Message ${i}`)
        yield* TestClock.adjust("1 millis")
      }
      const refused = yield* Effect.either(
        ChatTesting.send(organization.id, agent.public_id, run.workflow_run_id, "One more")
      )
      expect(Either.isLeft(refused) && refused.left._tag).toBe("TurnLimitReached")
    }).pipe(Effect.provide(ChatTesting.layer))
  )
})
