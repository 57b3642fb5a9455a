import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, TestClock } from "effect"
import { Agents } from "../../src/agents/Agents.js"
import { Chats } from "../../src/chat/Chats.js"
import * as ConversationLimits from "../../src/conversation/ConversationLimits.js"
import { Runs } from "../../src/runs/Runs.js"
import * as ChatTesting from "./ChatTesting.js"
import { ModelScript, calls, text } from "../conversation/ScriptedModel.js"

describe("Chats", () => {
  it.effect("a message without text opens the chat with the agent's first message, and starts it", () =>
    Effect.gen(function* () {
      const { agent, organization } = yield* ChatTesting.organizationWithAgent
      const run = yield* ChatTesting.chat(organization.id, agent.public_id, { first_name: "Ola" })
      const { events, reply } = yield* ChatTesting.send(organization.id, agent.public_id, run.workflow_run_id)
      expect(reply).toMatchObject({
        reply: { role: "assistant", text: "Hello Ola, this is Ada." },
        tool_calls: [],
        ended: false,
        end_reason: null
      })
      expect(reply.run.status).toBe("in_progress")
      expect(events).toEqual([{ _tag: "Delta", text: "Hello Ola, this is Ada." }])
      // the first message is the agent's own: no model was asked
      expect(yield* Effect.flatten(Effect.map(ModelScript, (s) => s.requests))).toEqual([])
      const listed = yield* (yield* Chats).messages(organization.id, agent.public_id, run.workflow_run_id)
      expect(listed.messages.map((m) => [m.role, m.text])).toEqual([["assistant", "Hello Ola, this is Ada."]])
    }).pipe(Effect.provide(ChatTesting.layer))
  )

  it.effect(
    "a message is answered by the model from the prompt, the history and the message; both are kept",
    () =>
      Effect.gen(function* () {
        const { agent, organization } = yield* ChatTesting.organizationWithAgent
        const run = yield* ChatTesting.chat(organization.id, agent.public_id, { first_name: "Ola" })
        yield* ChatTesting.send(organization.id, agent.public_id, run.workflow_run_id)
        const opened = yield* ChatTesting.stored(organization.id, run.workflow_run_id)
        yield* TestClock.adjust("2 seconds")
        yield* (yield* ModelScript).push(
          text("It is at ten tomorrow.", { prompt_tokens: 40, completion_tokens: 7 })
        )
        const { events, reply } = yield* ChatTesting.send(
          organization.id,
          agent.public_id,
          run.workflow_run_id,
          "When is it?"
        )
        expect(reply.reply.text).toBe("It is at ten tomorrow.")
        expect(events.map((e) => (e._tag === "Delta" ? e.text : "")).join("")).toBe("It is at ten tomorrow.")
        const request = yield* ChatTesting.streamed(0)
        expect(request.messages[0]).toMatchObject({ role: "system" })
        expect((request.messages[0] as { content: string }).content).toContain("Confirm the appointment")
        expect(request.messages.slice(1)).toEqual([
          { role: "assistant", content: "Hello Ola, this is Ada." },
          { role: "user", content: "When is it?" }
        ])
        expect(request.guide?.data_fields.map((f) => f.name)).toEqual(["email", "preferred_time"])
        const listed = yield* (yield* Chats).messages(organization.id, agent.public_id, run.workflow_run_id)
        expect(listed.messages.map((m) => [m.role, m.text])).toEqual([
          ["assistant", "Hello Ola, this is Ada."],
          ["user", "When is it?"],
          ["assistant", "It is at ten tomorrow."]
        ])
        const after = yield* ChatTesting.stored(organization.id, run.workflow_run_id)
        expect(after).toMatchObject({ model_prompt_tokens: 40, model_completion_tokens: 7 })
        expect(after.last_activity_at).not.toBeNull()
        // the reply's own write (a chat under way: one step of the store) moved the last activity on
        expect(after.last_activity_at!.getTime()).toBeGreaterThanOrEqual(
          opened.last_activity_at!.getTime() + 2000
        )
      }).pipe(Effect.provide(ChatTesting.layer))
  )

  it.effect("a text message to a chat that has not started is answered after the opening, both kept", () =>
    Effect.gen(function* () {
      const { agent, organization } = yield* ChatTesting.organizationWithAgent
      const run = yield* ChatTesting.chat(organization.id, agent.public_id, { first_name: "Ola" })
      yield* (yield* ModelScript).push(text("Yes, Ada here."))
      const { reply } = yield* ChatTesting.send(
        organization.id,
        agent.public_id,
        run.workflow_run_id,
        "Is that Ada?"
      )
      expect(reply.reply.text).toBe("Yes, Ada here.")
      expect((yield* ChatTesting.streamed(0)).messages.slice(1)).toEqual([
        { role: "assistant", content: "Hello Ola, this is Ada." },
        { role: "user", content: "Is that Ada?" }
      ])
      const listed = yield* (yield* Chats).messages(organization.id, agent.public_id, run.workflow_run_id)
      expect(listed.messages.map((m) => m.role)).toEqual(["assistant", "user", "assistant"])
    }).pipe(Effect.provide(ChatTesting.layer))
  )

  it.effect(
    "a tool call reaches the outbound client, its result goes back to the model, and it is listed in place",
    () =>
      Effect.gen(function* () {
        const { agent, organization } = yield* ChatTesting.organizationWithAgent
        const weather = yield* ChatTesting.tool(organization.id, "Weather lookup", {
          type: "http_api",
          config: {
            method: "GET",
            url: "https://weather.example.com/now",
            parameters: [{ name: "city", type: "string", description: "The city" }],
            trigger_phrases: ["weather"]
          }
        })
        yield* (yield* Agents).update(organization.id, agent.public_id, {
          definition: { tools: [weather.tool_uuid] }
        })
        const run = yield* ChatTesting.chat(organization.id, agent.public_id)
        yield* ChatTesting.send(organization.id, agent.public_id, run.workflow_run_id)
        yield* TestClock.adjust("1 second")
        yield* (yield* ModelScript).push(
          calls([["weather_lookup", { city: "Warsaw" }]], "Let me check."),
          text("It is sunny.")
        )
        const { events, reply } = yield* ChatTesting.send(
          organization.id,
          agent.public_id,
          run.workflow_run_id,
          "What's the weather?"
        )
        expect(reply.reply.text).toBe("Let me check. It is sunny.")
        expect(reply.tool_calls).toEqual([
          { tool_uuid: weather.tool_uuid, name: "Weather lookup", ok: true, error: null }
        ])
        expect(events.map((e) => e._tag)).toContain("ToolCalled")
        const sent = yield* Effect.flatten(Effect.map(ChatTesting.Outbound, (o) => o))
        expect(sent.map((r) => r.url)).toEqual(["https://weather.example.com/now?city=Warsaw"])
        const first = yield* ChatTesting.streamed(0)
        expect(first.tools?.map((t) => t.name)).toEqual(["weather_lookup"])
        expect(first.guide?.triggers).toEqual({ weather_lookup: ["weather"] })
        const second = yield* ChatTesting.streamed(1)
        expect(second.messages.at(-2)).toMatchObject({
          role: "assistant",
          tool_calls: [{ name: "weather_lookup" }]
        })
        expect(second.messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_weather_lookup_0" })
        expect((second.messages.at(-1) as { content: string }).content).toContain("sunny")
        const listed = yield* (yield* Chats).messages(organization.id, agent.public_id, run.workflow_run_id)
        expect(listed.messages.map((m) => m.role)).toEqual(["assistant", "user", "tool", "assistant"])
        expect(listed.messages[2]!.tool_call).toEqual({
          tool_uuid: weather.tool_uuid,
          name: "Weather lookup",
          ok: true,
          error: null
        })
        // the next message's history has the call in place
        yield* TestClock.adjust("1 second")
        yield* ChatTesting.send(organization.id, agent.public_id, run.workflow_run_id, "Thanks")
        expect((yield* ChatTesting.streamed(2)).messages.map((m) => m.role)).toEqual([
          "system",
          "assistant",
          "user",
          "assistant",
          "tool",
          "assistant",
          "user"
        ])
      }).pipe(Effect.provide(ChatTesting.layer))
  )

  it.effect("end_call ends the chat completed, the model's words its last turn, and its analysis waits", () =>
    Effect.gen(function* () {
      const { agent, organization } = yield* ChatTesting.organizationWithAgent
      const hangUp = yield* ChatTesting.tool(organization.id, "End conversation", {
        type: "end_call",
        config: {}
      })
      yield* (yield* Agents).update(organization.id, agent.public_id, {
        definition: { tools: [hangUp.tool_uuid] }
      })
      const run = yield* ChatTesting.chat(organization.id, agent.public_id)
      yield* ChatTesting.send(organization.id, agent.public_id, run.workflow_run_id)
      yield* TestClock.adjust("30 seconds")
      yield* (yield* ModelScript).push(calls([["end_conversation", {}]], "Goodbye!"))
      const { reply } = yield* ChatTesting.send(organization.id, agent.public_id, run.workflow_run_id, "Bye")
      expect(reply).toMatchObject({ ended: true, end_reason: "end_call", reply: { text: "Goodbye!" } })
      expect(reply.run).toMatchObject({
        status: "completed",
        duration_seconds: 30,
        cost: 0,
        analysis_status: "pending"
      })
      const transcript = yield* (yield* Runs).transcript(
        organization.id,
        agent.public_id,
        run.workflow_run_id
      )
      expect(transcript.turns.map((t) => [t.role, t.text])).toEqual([
        ["assistant", "Hello , this is Ada."],
        ["user", "Bye"],
        ["assistant", "Goodbye!"]
      ])
      // one model request: nothing is asked after the end
      expect((yield* Effect.flatten(Effect.map(ModelScript, (s) => s.requests))).length).toBe(1)
      const refused = yield* Effect.either(
        ChatTesting.send(organization.id, agent.public_id, run.workflow_run_id, "Hello?")
      )
      expect(Either.isLeft(refused) && refused.left._tag).toBe("ConversationEnded")
    }).pipe(Effect.provide(ChatTesting.layer))
  )

  it.effect("a transfer is refused to the model in a chat, and the model answers", () =>
    Effect.gen(function* () {
      const { agent, organization } = yield* ChatTesting.organizationWithAgent
      const transfer = yield* ChatTesting.tool(organization.id, "Human", {
        type: "transfer",
        config: { destination_number: "+48500100200" }
      })
      yield* (yield* Agents).update(organization.id, agent.public_id, {
        definition: { tools: [transfer.tool_uuid] }
      })
      const run = yield* ChatTesting.chat(organization.id, agent.public_id)
      yield* (yield* ModelScript).push(calls([["human", {}]]), text("Please call us at +48 500 100 200."))
      const { reply } = yield* ChatTesting.send(
        organization.id,
        agent.public_id,
        run.workflow_run_id,
        "A person please"
      )
      expect(reply.tool_calls).toEqual([
        { tool_uuid: transfer.tool_uuid, name: "Human", ok: false, error: "transfer_not_available_in_chat" }
      ])
      expect(reply.ended).toBe(false)
      expect((yield* ChatTesting.streamed(1)).messages.at(-1)).toMatchObject({ role: "tool" })
      expect(((yield* ChatTesting.streamed(1)).messages.at(-1) as { content: string }).content).toContain(
        "not available in a chat"
      )
    }).pipe(Effect.provide(ChatTesting.layer))
  )

  it.effect("after five tool calls in one reply the model must answer in words", () =>
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
      const script = yield* ModelScript
      yield* script.push(
        calls([
          ["weather", {}],
          ["weather", {}],
          ["weather", {}]
        ]),
        calls([
          ["weather", {}],
          ["weather", {}],
          ["weather", {}]
        ]),
        text("Sunny everywhere.")
      )
      const { reply } = yield* ChatTesting.send(
        organization.id,
        agent.public_id,
        run.workflow_run_id,
        "Weather?"
      )
      expect(reply.tool_calls).toHaveLength(ConversationLimits.maxToolCallsPerTurn)
      expect(reply.reply.text).toBe("Sunny everywhere.")
      expect((yield* ChatTesting.streamed(1)).tool_choice).toBe("auto")
      expect((yield* ChatTesting.streamed(2)).tool_choice).toBe("none")
    }).pipe(Effect.provide(ChatTesting.layer))
  )
})
