/** Agents, functions and a conversation loop for the embedded model's tests. */
import type { Schema } from "effect"
import type { GatheredField } from "../../../src/agents/Agent.js"
import * as CallAnalysis from "../../../src/analysis/CallAnalysis.js"
import { replyTo } from "../../../src/language-model/embedded/EmbeddedModel.js"
import type {
  ConversationGuide,
  FunctionTool,
  ModelMessage,
  ModelReply,
  ModelRequest
} from "../../../src/language-model/LanguageModel.js"
import { emptyGuide } from "../../../src/language-model/LanguageModel.js"

/** A dental clinic's agent: a plan of one step, three fields, a FAQ, knowledge, an order lookup, end_call. */
export const clinic: ConversationGuide = {
  ...emptyGuide,
  first_message: "Hello, this is Ann from Dental Care.",
  plan: [{ title: "Confirm the visit", description: "Is Monday at 10 still fine for you?" }],
  faq: [{ question: "What are your opening hours?", answer: "We are open from 8 to 18 on weekdays." }],
  knowledge: ["Parking is free for patients behind the building. The entrance is from the yard."],
  data_fields: [
    { name: "email", description: null, type: "string" },
    { name: "party_size", description: null, type: "number" },
    { name: "newsletter", description: "Wants the newsletter", type: "boolean" }
  ],
  triggers: { check_order: ["check my order", "where is my order"], end_call: [] },
  end_function: "end_call",
  disposition_codes: { confirmed: "The patient confirmed the visit", cancelled: "The patient cancelled" }
}

export const checkOrder: FunctionTool = {
  name: "check_order",
  description: "Looks an order up",
  parameters: {
    type: "object",
    properties: { order_id: { type: "string", description: "The order's id" } },
    required: ["order_id"]
  }
}

export const endCall: FunctionTool = {
  name: "end_call",
  description: "Ends the call",
  parameters: { type: "object", properties: {}, required: [] }
}

export const tools: ReadonlyArray<FunctionTool> = [checkOrder, endCall]

/** A result the tests' functions answer with. */
export const shipped = JSON.stringify({ ok: true, response: { status: "shipped", eta: "2026-03-01" } })

/** The messages and replies of a conversation in which the user says `said`, one line per turn. */
export const converse = (
  request: Omit<ModelRequest, "messages">,
  said: ReadonlyArray<string>,
  answer: (call: { readonly name: string }) => string = () => shipped,
  maxReplies = 40
): { readonly messages: ReadonlyArray<ModelMessage>; readonly replies: ReadonlyArray<ModelReply> } => {
  const messages: Array<ModelMessage> = []
  const replies: Array<ModelReply> = []
  let next = 0
  while (replies.length < maxReplies) {
    const reply = replyTo({ ...request, messages })
    replies.push(reply)
    messages.push({
      role: "assistant",
      content: reply.text,
      ...(reply.tool_calls.length > 0 ? { tool_calls: reply.tool_calls } : {})
    })
    if (reply.tool_calls.some((call) => call.name === request.guide?.end_function)) break
    if (reply.tool_calls.length > 0) {
      for (const call of reply.tool_calls)
        messages.push({ role: "tool", tool_call_id: call.id, content: answer(call) })
      continue
    }
    const line = said[next++]
    if (line === undefined) break
    messages.push({ role: "user", content: line })
  }
  return { messages, replies }
}

/** The conversation as lines `A: …` / `U: …` / `call name(args)`, to read in an assertion. */
export const lines = (messages: ReadonlyArray<ModelMessage>): ReadonlyArray<string> =>
  messages.flatMap((message) => {
    switch (message.role) {
      case "system":
        return []
      case "user":
        return [`U: ${message.content}`]
      case "assistant":
        return [
          ...(message.content === "" ? [] : [`A: ${message.content}`]),
          ...(message.tool_calls ?? []).map((call) => `call ${call.name}(${call.arguments})`)
        ]
      case "tool":
        return [`result ${message.tool_call_id}`]
    }
  })

/** An agent's analysis schema, typed as the analysis reads it (`schemaFor` answers one of two shapes). */
export const analysisSchema = (
  fields: ReadonlyArray<GatheredField>,
  codes: Readonly<Record<string, unknown>>
) => CallAnalysis.schemaFor(fields, codes) as unknown as Schema.Schema<CallAnalysis.Analysis, unknown>
