/** The chat tests' agent, its tools and knowledge, and how they talk to it. */
import type { HttpClient } from "@effect/platform"
import { HttpClientRequest } from "@effect/platform"
import { expect } from "@effect/vitest"
import { ImprovementGeneration, RunAnalysis } from "@voice-agent-platform/core"
import { Effect, Layer } from "effect"
import { type Body, conversations } from "./ConversationFixtures.js"
import { uploadAndSettle } from "./KnowledgeBaseFixtures.js"
import { answerJson, receiver } from "./Receiver.js"
import { json, organization, rawClient, send } from "./TestServer.js"

/** Where a chat's messages go. */
export const messages = (agent: string | number, runId: number) => `${conversations(agent)}/${runId}/messages`

/** The knowledge document the agent answers from. */
export const knowledge = [
  "Smile Clinic, frequently asked questions.",
  "",
  "Q: What are your opening hours?",
  "A: We are open from 8 to 16 on weekdays.",
  "",
  "Q: Where are you?",
  "A: Marszałkowska 1 in Warsaw."
].join("\n")

/** The disposition codes the analysis chooses from. */
export const dispositionCodes = {
  confirmed: "The caller confirmed the appointment",
  declined: "The caller declined the appointment"
}

/**
 * An agent made from a call script (an e-mail to gather), with a weather tool calling `receiverOrigin`, an
 * end-call tool, the knowledge document, disposition codes, and a webhook endpoint at the receiver.
 */
export const chatAgent = (client: HttpClient.HttpClient, receiverOrigin: string) =>
  Effect.gen(function* () {
    const created = yield* send(
      client,
      json("POST", "/api/v1/agents/from-script", {
        agent: {
          greeting: "Hello {{initial_context.first_name}}, this is Ada from Smile Clinic.",
          agent_goal: "Confirm the appointment",
          conversation_structure: ["Confirm the appointment time"],
          data_fields: [{ name: "email", description: "The caller's e-mail address" }]
        }
      })
    )
    expect(created.status).toBe(200)
    const agent = created.body as Body
    const weather = yield* send(
      client,
      json("POST", "/api/v1/tools", {
        name: "Weather lookup",
        definition: {
          type: "http_api",
          config: {
            method: "GET",
            url: `${receiverOrigin}/weather`,
            parameters: [{ name: "city", type: "string", description: "The city", required: false }],
            trigger_phrases: ["weather"],
            response_fields: ["forecast"]
          }
        }
      })
    )
    expect(weather.status).toBe(200)
    const hangUp = yield* send(
      client,
      json("POST", "/api/v1/tools", { name: "End call", definition: { type: "end_call", config: {} } })
    )
    expect(hangUp.status).toBe(200)
    const document = yield* uploadAndSettle(client, {
      name: "faq.txt",
      content: knowledge,
      type: "text/plain"
    })
    expect(document.processing_status).toBe("completed")
    const patched = yield* send(
      client,
      json("PATCH", `/api/v1/agents/${agent.public_id}`, {
        tools: [(weather.body as Body).tool_uuid, (hangUp.body as Body).tool_uuid],
        knowledge_base_document_ids: [document.document_uuid],
        call_disposition_codes: dispositionCodes
      })
    )
    expect(patched.status).toBe(200)
    expect((patched.body as Body).workflow_definition.knowledge_base_document_ids).toEqual([document.id])
    const endpoint = yield* send(client, json("POST", "/api/v1/webhooks", { url: `${receiverOrigin}/hooks` }))
    expect(endpoint.status).toBe(200)
    return {
      agent,
      weather: weather.body as Body,
      hangUp: hangUp.body as Body,
      endpoint: endpoint.body as Body
    }
  })

/** Sends a chat message (no text: the agent opens) and answers the reply. */
export const say = (client: HttpClient.HttpClient, agent: string, runId: number, text?: string) =>
  Effect.map(
    send(client, json("POST", messages(agent, runId), text === undefined ? {} : { text })),
    (answer) => ({ ...answer, reply: answer.body as Body })
  )

/** One round of the analysis worker, as a server's background would run it. */
export const analyse = Effect.flatMap(RunAnalysis.RunAnalysis, (analysis) => analysis.round).pipe(
  Effect.provide(RunAnalysis.layer.pipe(Layer.provide(ImprovementGeneration.layer)))
)

/** The event types delivered (or waiting) at the endpoint. */
export const deliveredTypes = (client: HttpClient.HttpClient, endpointId: string) =>
  Effect.map(
    send(client, HttpClientRequest.get(`/api/v1/webhooks/${endpointId}/deliveries?limit=100`)),
    (answer) => ((answer.body as Body).items as Array<Body>).map((d) => d.event_type as string)
  )

/** A local receiver for the weather tool: `{forecast}` at `/weather`, `{}` anywhere else (the webhooks). */
export const weatherReceiver = (forecast = "sunny and 21 degrees") =>
  receiver((request, response) =>
    answerJson(response, 200, request.url.startsWith("/weather") ? { forecast } : {})
  )

/** A new organization's client and its chat agent (`chatAgent`) whose tools call `receiverOrigin`. */
export const organizationWithChatAgent = (receiverOrigin: string) =>
  Effect.gen(function* () {
    const { apiKey } = yield* organization()
    const client = yield* rawClient(apiKey)
    return { client, ...(yield* chatAgent(client, receiverOrigin)) }
  })
