import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { FakeOpenAiServer } from "@voice-agent-platform/language-models/testing"
import { Effect } from "effect"
import {
  analyse,
  deliveredTypes,
  messages,
  organizationWithChatAgent,
  say,
  weatherReceiver
} from "../support/ChatFixtures.js"
import { type Body, conversations } from "../support/ConversationFixtures.js"
import { fakeModelServer, modelKey, modelName } from "../support/FakeModelServer.js"
import { json, organization, rawClient, send } from "../support/TestServer.js"

/** What the fake server was sent for chat completions since `from`. */
const completions = (from: number) =>
  Effect.flatMap(FakeOpenAiServer.FakeOpenAiServer, (fake) =>
    Effect.map(fake.requests, (all) =>
      all
        .slice(from)
        .filter((r) => r.path.endsWith("/chat/completions"))
        .map((r) => r as typeof r & { body: Body })
    )
  )

const requestCount = Effect.flatMap(FakeOpenAiServer.FakeOpenAiServer, (fake) =>
  Effect.map(fake.requests, (all) => all.length)
)

/** A new chat of the agent, opened (its first message). */
const openedChat = (
  client: Parameters<typeof say>[0],
  agent: string,
  initial_context: Record<string, unknown> = {}
) =>
  Effect.gen(function* () {
    const created = yield* send(client, json("POST", conversations(agent), { mode: "chat", initial_context }))
    const runId = (created.body as Body).workflow_run_id as number
    expect((yield* say(client, agent, runId)).status).toBe(200)
    return runId
  })

/** Server-sent events of a text/event-stream body. */
const events = (text: string) =>
  text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const lines = block.split("\n")
      const event = lines.find((l) => l.startsWith("event: "))!.slice("event: ".length)
      const data = JSON.parse(lines.find((l) => l.startsWith("data: "))!.slice("data: ".length)) as Body
      return { event, data }
    })

// on the real clock: a model request failing before it answered is tried again after a real wait
layer(fakeModelServer, { timeout: "60 seconds", excludeTestServices: true })(
  "chats with an OpenAI-compatible model over HTTP",
  (it) => {
    it.scoped("open, a tool at a local receiver, a knowledge answer, end_call, then the analysis", () =>
      Effect.gen(function* () {
        const fake = yield* FakeOpenAiServer.FakeOpenAiServer
        yield* fake.reset
        const local = yield* weatherReceiver()
        const { client, agent, endpoint, hangUp, weather } = yield* organizationWithChatAgent(local.origin)
        const from = yield* requestCount
        const runId = yield* openedChat(client, agent.public_id, { first_name: "Ola" })
        // the first message is the agent's own: no model request
        expect(yield* completions(from)).toEqual([])

        yield* fake.script(
          { kind: "reply", tool_calls: [{ name: "weather_lookup", arguments: '{"city":"Warsaw"}' }] },
          { kind: "reply", content: "It is sunny and 21 degrees in Warsaw." }
        )
        const weatherReply = yield* say(client, agent.public_id, runId, "What is the weather like in Warsaw?")
        expect(weatherReply.reply).toMatchObject({
          reply: { role: "assistant", text: "It is sunny and 21 degrees in Warsaw." },
          tool_calls: [{ tool_uuid: weather.tool_uuid, name: "Weather lookup", ok: true, error: null }]
        })
        expect(local.requests.map((r) => r.url)).toContain("/weather?city=Warsaw")
        const [first, second] = yield* completions(from)
        expect(first!.headers["authorization"]).toBe(`Bearer ${modelKey}`)
        expect(first!.body).toMatchObject({ model: modelName, stream: true, tool_choice: "auto" })
        expect((first!.body.tools as Array<Body>).map((t) => t.function.name)).toEqual([
          "weather_lookup",
          "end_call"
        ])
        expect(first!.body.messages.map((m: Body) => m.role)).toEqual(["system", "assistant", "user"])
        expect(first!.body.messages[0].content).toContain("Confirm the appointment")
        expect(second!.body.messages.slice(-2).map((m: Body) => m.role)).toEqual(["assistant", "tool"])
        expect(second!.body.messages.at(-1).content).toContain("sunny and 21 degrees")

        const before = (yield* completions(0)).length
        yield* fake.script({ kind: "reply", content: "We are open from 8 to 16 on weekdays." })
        const hours = yield* say(client, agent.public_id, runId, "What are your opening hours?")
        expect(hours.reply.reply.text).toBe("We are open from 8 to 16 on weekdays.")
        const asked = (yield* completions(0))[before]!
        // the knowledge most relevant to the message was given with it
        expect(asked.body.messages[0].content).toContain("We are open from 8 to 16 on weekdays.")

        yield* fake.script({
          kind: "reply",
          content: "Thank you, Ola. Goodbye!",
          tool_calls: [{ name: "end_call", arguments: "{}" }]
        })
        const goodbye = yield* say(client, agent.public_id, runId, "My email is ola@example.com. Goodbye!")
        expect(goodbye.reply).toMatchObject({
          status: "completed",
          ended: true,
          end_reason: "end_call",
          reply: { text: "Thank you, Ola. Goodbye!" },
          tool_calls: [{ tool_uuid: hangUp.tool_uuid, ok: true }]
        })

        yield* fake.script({
          kind: "reply",
          content: JSON.stringify({
            gathered_data: { email: "ola@example.com" },
            disposition: "confirmed",
            summary: "Ola asked about the weather and the opening hours, gave her e-mail and said goodbye."
          })
        })
        expect(yield* analyse).toEqual(["done"])
        const analysis = (yield* completions(0)).at(-1)!
        expect(analysis.body.response_format).toMatchObject({
          type: "json_schema",
          json_schema: { name: "call_analysis", strict: true }
        })
        expect(analysis.body.messages.at(-1).content).toContain("user: My email is ola@example.com. Goodbye!")
        const run = (yield* send(client, HttpClientRequest.get(`${conversations(agent.public_id)}/${runId}`)))
          .body as Body
        expect(run).toMatchObject({
          status: "completed",
          analysis_status: "completed",
          disposition: "confirmed",
          gathered_context: { email: "ola@example.com" },
          summary: "Ola asked about the weather and the opening hours, gave her e-mail and said goodbye."
        })
        expect(run.cost.tokens.prompt).toBeGreaterThan(0)
        expect(yield* deliveredTypes(client, endpoint.id)).toEqual(expect.arrayContaining(["call.analyzed"]))
        // the key is the model's, never the organization's to see
        expect(JSON.stringify(run)).not.toContain(modelKey)
      })
    )

    it.scoped("streams a reply as server-sent events: deltas, the tool call, then done", () =>
      Effect.gen(function* () {
        const fake = yield* FakeOpenAiServer.FakeOpenAiServer
        yield* fake.reset
        const local = yield* weatherReceiver("rain")
        const { client, agent, weather } = yield* organizationWithChatAgent(local.origin)
        const runId = yield* openedChat(client, agent.public_id)
        yield* fake.script(
          {
            kind: "reply",
            content: "Let me look.",
            tool_calls: [{ name: "weather_lookup", arguments: "{}" }]
          },
          { kind: "reply", content: "It will rain, take an umbrella." }
        )
        const streamed = yield* send(
          client,
          json("POST", messages(agent.public_id, runId), { text: "Weather?" }).pipe(
            HttpClientRequest.setHeader("accept", "text/event-stream")
          )
        )
        expect(streamed.status).toBe(200)
        expect(streamed.headers["content-type"]).toMatch(/^text\/event-stream/)
        const received = events(streamed.text)
        const done = received.at(-1)!
        expect(done.event).toBe("done")
        expect(done.data).toMatchObject({
          reply: { text: "Let me look. It will rain, take an umbrella." },
          ended: false
        })
        expect(
          received
            .filter((e) => e.event === "delta")
            .map((e) => e.data.text)
            .join("")
        ).toBe(done.data.reply.text)
        expect(received.filter((e) => e.event === "tool_call").map((e) => e.data)).toEqual([
          { tool_uuid: weather.tool_uuid, name: "Weather lookup", ok: true, error: null }
        ])
        const kept = yield* send(client, HttpClientRequest.get(messages(agent.public_id, runId)))
        expect(((kept.body as Body).messages as Array<Body>).at(-1)!.text).toBe(done.data.reply.text)
      })
    )

    it.scoped(
      "the model unavailable after one retry: 503 with Retry-After, nothing kept, the same message then works",
      () =>
        Effect.gen(function* () {
          const fake = yield* FakeOpenAiServer.FakeOpenAiServer
          yield* fake.reset
          const { client, agent } = yield* organizationWithChatAgent("http://127.0.0.1:9")
          const runId = yield* openedChat(client, agent.public_id)
          const down = {
            kind: "json" as const,
            status: 500,
            body: { error: { type: "server_error", message: "boom" } }
          }
          yield* fake.script(down, down)
          const refused = yield* say(client, agent.public_id, runId, "Hello?")
          expect(refused.status).toBe(503)
          expect(refused.headers["retry-after"]).toBe("5")
          expect(refused.reply.detail).toMatch(/^model_unavailable: /)
          const streamedRefusal = yield* fake
            .script(down, down)
            .pipe(
              Effect.zipRight(
                send(
                  client,
                  json("POST", messages(agent.public_id, runId), { text: "Hello?" }).pipe(
                    HttpClientRequest.setHeader("accept", "text/event-stream")
                  )
                )
              )
            )
          // a stream that fails before its first event is the request's failure
          expect(streamedRefusal.status).toBe(503)
          const listed = yield* send(client, HttpClientRequest.get(messages(agent.public_id, runId)))
          expect(((listed.body as Body).messages as Array<Body>).map((m) => m.role)).toEqual(["assistant"])
          // a rate limit of a second is waited out once
          yield* fake.script(
            {
              kind: "json",
              status: 429,
              headers: { "retry-after": "1" },
              body: { error: { type: "rate_limit" } }
            },
            { kind: "reply", content: "Hello! How can I help?" }
          )
          const answered = yield* say(client, agent.public_id, runId, "Hello?")
          expect(answered.status).toBe(200)
          expect(answered.reply.reply.text).toBe("Hello! How can I help?")
        })
    )

    it.scoped("an Idempotency-Key replays the first answer without asking the model again", () =>
      Effect.gen(function* () {
        const fake = yield* FakeOpenAiServer.FakeOpenAiServer
        yield* fake.reset
        const { client, agent } = yield* organizationWithChatAgent("http://127.0.0.1:9")
        const runId = yield* openedChat(client, agent.public_id)
        yield* fake.script({ kind: "reply", content: "Noted." })
        const request = json("POST", messages(agent.public_id, runId), { text: "Note this." }).pipe(
          HttpClientRequest.setHeader("idempotency-key", "chat-message-0001")
        )
        const first = yield* send(client, request)
        const before = yield* requestCount
        const again = yield* send(client, request)
        expect(first.status).toBe(200)
        expect(again.status).toBe(200)
        expect(again.body).toEqual(first.body)
        expect(again.headers["idempotency-replayed"]).toBe("true")
        expect(yield* requestCount).toBe(before)
        const listed = yield* send(client, HttpClientRequest.get(messages(agent.public_id, runId)))
        expect(((listed.body as Body).messages as Array<Body>).map((m) => m.text)).toEqual([
          expect.any(String),
          "Note this.",
          "Noted."
        ])
      })
    )

    it.scoped(
      "refuses: another organization's run 404, a run that is not a chat 409, text too long or missing 422",
      () =>
        Effect.gen(function* () {
          const { agent, client } = yield* organizationWithChatAgent("http://127.0.0.1:9")
          const stranger = yield* rawClient((yield* organization()).apiKey)
          const runId = yield* openedChat(client, agent.public_id)
          const before = yield* requestCount
          expect((yield* say(stranger, agent.public_id, runId, "Hi")).status).toBe(404)
          const browser = yield* send(
            client,
            json("POST", conversations(agent.public_id), { mode: "webrtc" })
          )
          const notChat = yield* say(client, agent.public_id, (browser.body as Body).workflow_run_id, "Hi")
          expect([notChat.status, notChat.reply.detail]).toEqual([409, expect.stringMatching(/^not_a_chat/)])
          const long = yield* say(client, agent.public_id, runId, "x".repeat(4001))
          expect(long.status).toBe(422)
          expect(long.reply.detail[0].loc).toEqual(["body", "text"])
          const missing = yield* say(client, agent.public_id, runId)
          expect([missing.status, missing.reply.detail[0].loc]).toEqual([422, ["body", "text"]])
          expect(
            (yield* send(stranger, HttpClientRequest.get(messages(agent.public_id, runId)))).status
          ).toBe(404)
          expect(
            (yield* send(stranger, json("POST", `${conversations(agent.public_id)}/${runId}/end`, {}))).status
          ).toBe(404)
          // nothing of these refusals reached the model
          expect(yield* requestCount).toBe(before)
        })
    )

    it.scoped("nothing of another organization reaches a model request", () =>
      Effect.gen(function* () {
        const fake = yield* FakeOpenAiServer.FakeOpenAiServer
        yield* fake.reset
        const chatOf = (secret: string) =>
          Effect.gen(function* () {
            const { apiKey } = yield* organization()
            const client = yield* rawClient(apiKey)
            const created = yield* send(
              client,
              json("POST", "/api/v1/agents/from-script", {
                agent: { greeting: `Hello from ${secret}.`, agent_goal: `Sell ${secret}` }
              })
            )
            const agent = (created.body as Body).public_id as string
            const runId = yield* openedChat(client, agent, { code: secret })
            return { client, agent, runId }
          })
        const a = yield* chatOf("AARDVARK-SECRET")
        const b = yield* chatOf("BUMBLEBEE-SECRET")
        const from = yield* requestCount
        yield* fake.script({ kind: "reply", content: "Sure." }, { kind: "reply", content: "Of course." })
        yield* Effect.all(
          [
            say(a.client, a.agent, a.runId, "Tell me more about AARDVARK-SECRET"),
            say(b.client, b.agent, b.runId, "And BUMBLEBEE-SECRET?")
          ],
          { concurrency: "unbounded" }
        )
        const sent = yield* completions(from)
        expect(sent).toHaveLength(2)
        for (const request of sent) {
          const text = JSON.stringify(request.body)
          expect(text.includes("AARDVARK") && text.includes("BUMBLEBEE")).toBe(false)
        }
      })
    )

    it.scoped("two messages to one chat at once are answered one after the other", () =>
      Effect.gen(function* () {
        const fake = yield* FakeOpenAiServer.FakeOpenAiServer
        yield* fake.reset
        const { client, agent } = yield* organizationWithChatAgent("http://127.0.0.1:9")
        const runId = yield* openedChat(client, agent.public_id)
        const from = yield* requestCount
        yield* fake.script(
          { kind: "reply", content: "Answer one.", delay_ms: 300 },
          { kind: "reply", content: "Answer two." }
        )
        yield* Effect.all(
          [
            say(client, agent.public_id, runId, "Question one"),
            say(client, agent.public_id, runId, "Question two")
          ],
          {
            concurrency: "unbounded"
          }
        )
        const listed = yield* send(client, HttpClientRequest.get(messages(agent.public_id, runId)))
        const texts = ((listed.body as Body).messages as Array<Body>).map((m) => m.text)
        // whichever came first, each answer follows its own question
        expect(texts.slice(1)).toEqual(
          texts[1] === "Question one"
            ? ["Question one", "Answer one.", "Question two", "Answer two."]
            : ["Question two", "Answer one.", "Question one", "Answer two."]
        )
        const second = (yield* completions(from))[1]!
        expect(second.body.messages.map((m: Body) => m.content)).toContain("Answer one.")
      })
    )
  }
)
