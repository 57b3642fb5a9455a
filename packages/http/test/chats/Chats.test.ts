import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import {
  analyse,
  deliveredTypes,
  dispositionCodes,
  messages,
  organizationWithChatAgent,
  say,
  weatherReceiver
} from "../support/ChatFixtures.js"
import { type Body, conversations } from "../support/ConversationFixtures.js"
import { json, send, TestServer, TestServerOverSql } from "../support/TestServer.js"

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("a chat with the embedded model over HTTP, %s storage", (_, server) => {
  it.effect(
    "opens, calls a tool at a local receiver, answers from knowledge, ends by end_call, and is analysed",
    () =>
      Effect.gen(function* () {
        const local = yield* weatherReceiver()
        const { client, agent, endpoint, hangUp, weather } = yield* organizationWithChatAgent(local.origin)
        const created = yield* send(
          client,
          json("POST", conversations(agent.public_id), {
            mode: "chat",
            initial_context: { first_name: "Ola" }
          })
        )
        expect(created.status).toBe(200)
        const runId = (created.body as Body).workflow_run_id as number

        const opened = yield* say(client, agent.public_id, runId)
        expect(opened.status).toBe(200)
        expect(opened.reply).toEqual({
          workflow_run_id: runId,
          status: "in_progress",
          reply: { role: "assistant", text: "Hello Ola, this is Ada from Smile Clinic." },
          tool_calls: [],
          ended: false,
          end_reason: null
        })

        const weatherReply = yield* say(client, agent.public_id, runId, "What is the weather like in Warsaw?")
        expect(weatherReply.status).toBe(200)
        expect(weatherReply.reply.tool_calls).toEqual([
          { tool_uuid: weather.tool_uuid, name: "Weather lookup", ok: true, error: null }
        ])
        expect(local.requests.filter((r) => r.url.startsWith("/weather"))).toHaveLength(1)
        expect(weatherReply.reply.reply.text).toContain("sunny")

        const hours = yield* say(client, agent.public_id, runId, "What are your opening hours?")
        expect(hours.reply.reply.text).toContain("8 to 16")

        const goodbye = yield* say(
          client,
          agent.public_id,
          runId,
          "My email is ola@example.com. Thank you, goodbye!"
        )
        expect(goodbye.reply).toMatchObject({ status: "completed", ended: true, end_reason: "end_call" })
        expect(goodbye.reply.tool_calls).toEqual([
          { tool_uuid: hangUp.tool_uuid, name: "End call", ok: true, error: null }
        ])
        const refused = yield* say(client, agent.public_id, runId, "Hello?")
        expect(refused.status).toBe(409)
        expect(refused.reply.detail).toMatch(/^conversation_ended/)

        // the conversation, its tool calls in place, the transcript and the tool-call log
        const listed = yield* send(client, HttpClientRequest.get(messages(agent.public_id, runId)))
        expect(listed.status).toBe(200)
        const entries = (listed.body as Body).messages as Array<Body>
        expect(entries.map((m) => m.role)).toEqual([
          "assistant",
          "user",
          "tool",
          "assistant",
          "user",
          "assistant",
          "user",
          "tool",
          "assistant"
        ])
        const transcript = yield* send(
          client,
          HttpClientRequest.get(`${conversations(agent.public_id)}/${runId}/transcript`)
        )
        expect(transcript.status).toBe(200)
        expect(((transcript.body as Body).turns as Array<Body>).at(-1)?.role).toBe("assistant")
        const before = (yield* send(
          client,
          HttpClientRequest.get(`${conversations(agent.public_id)}/${runId}`)
        )).body as Body
        expect(
          before.logs.filter((l: Body) => l.tool_call !== undefined).map((l: Body) => l.tool_call.tool_uuid)
        ).toEqual([weather.tool_uuid, hangUp.tool_uuid])
        expect(before).toMatchObject({ status: "completed", analysis_status: "pending", summary: null })
        expect(before.cost.breakdown).toEqual({ telephony: 0, language_model: 0 })
        expect(before.cost.tokens.prompt).toBeGreaterThan(0)

        // the analysis after the chat
        expect(yield* analyse).toEqual(["done"])
        const run = (yield* send(client, HttpClientRequest.get(`${conversations(agent.public_id)}/${runId}`)))
          .body as Body
        expect(run.analysis_status).toBe("completed")
        expect(run.gathered_context).toMatchObject({ email: "ola@example.com" })
        expect(Object.keys(dispositionCodes)).toContain(run.disposition)
        expect(run.summary.length).toBeGreaterThan(0)
        expect(run.summary.length).toBeLessThanOrEqual(500)
        expect(yield* deliveredTypes(client, endpoint.id)).toEqual(
          expect.arrayContaining(["call.started", "call.ended", "call.analyzed"])
        )

        // a question the agent could not answer makes a suggestion, pending until someone accepts it
        const second = yield* send(client, json("POST", conversations(agent.public_id), { mode: "chat" }))
        const secondId = (second.body as Body).workflow_run_id as number
        yield* say(client, agent.public_id, secondId)
        const unknown = yield* say(client, agent.public_id, secondId, "Do you have parking for bicycles?")
        expect(unknown.status).toBe(200)
        expect(
          (yield* send(client, json("POST", `${conversations(agent.public_id)}/${secondId}/end`, {}))).status
        ).toBe(200)
        expect(yield* analyse).toEqual(["done"])
        const generated = yield* send(
          client,
          json("POST", `/api/v1/agents/${agent.public_id}/improvements/generate`, {})
        )
        expect(generated.status).toBe(200)
        const items = (generated.body as Body).items as Array<Body>
        expect(items.length).toBeGreaterThan(0)
        expect(items.every((i) => i.status === "pending")).toBe(true)
        expect(items.map((i) => i.source_run_id)).toContain(secondId)
        // the same again adds none: each equals a pending one
        const again = yield* send(
          client,
          json("POST", `/api/v1/agents/${agent.public_id}/improvements/generate`, {})
        )
        expect((again.body as Body).items).toEqual([])
      }).pipe(Effect.scoped, Effect.provide(server))
  )
})
