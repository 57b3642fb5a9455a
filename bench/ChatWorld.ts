// The chat bench's users: organizations made through the operator API, each with agents of different
// prompts, first messages, tools (HTTP API tools at the bench's local receiver, an end-call tool) and
// knowledge documents, all made through the public API; and what their users say, chat by chat
// (messages of different lengths, some asking for a tool by its function name, some saying goodbye),
// the same for every server a bench compares (a pure function of the chat's number).
import { call } from "./ServerProcess.js"

/** An agent chats are held with, and what its chats may ask for. */
export interface ChatAgent {
  readonly apiKey: string
  readonly agentId: string
  /** The function names of its HTTP API tools (the fake model calls one its user's message names). */
  readonly functions: ReadonlyArray<string>
  /** The function name of its end-call tool, if it has one. */
  readonly endFunction: string | null
}

/** One message of a chat's plan. */
export interface PlannedMessage {
  readonly text: string
  /** Sent with `Accept: text/event-stream`. */
  readonly streamed: boolean
}

/** A chat: the agent, its messages, and whether the last one asks the agent to end it (its end-call tool). */
export interface ChatPlan {
  readonly agent: ChatAgent
  readonly messages: ReadonlyArray<PlannedMessage>
  readonly endsByAgent: boolean
}

/** A small deterministic generator (mulberry32): the same seed, the same traffic. */
export const random = (seed: number) => {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const pick = <A>(next: () => number, items: ReadonlyArray<A>): A => items[Math.floor(next() * items.length)]!

const businesses = [
  { name: "Smile Clinic", what: "a dental clinic in Warsaw", goal: "Book or move a dental appointment" },
  { name: "Pizza Roma", what: "a pizza restaurant with delivery", goal: "Take and track food orders" },
  { name: "Volt Energy", what: "an electricity supplier", goal: "Answer billing questions" },
  { name: "Fit Club", what: "a chain of gyms", goal: "Sell and manage memberships" },
  { name: "City Cars", what: "a car rental company", goal: "Book cars and answer rental questions" },
  { name: "Book Nook", what: "an online bookshop", goal: "Help with orders and returns" },
  { name: "Home Fix", what: "a home repair service", goal: "Schedule repair visits" },
  { name: "Sky Travel", what: "a travel agency", goal: "Sell trips and answer travel questions" }
]

const policies = [
  "Always greet the customer by name when you know it and keep answers short and friendly.",
  "Never promise a refund; say that a person will review the request within two working days.",
  "If the customer is upset, apologise once, then focus on what can be done today.",
  "Ask for the order or booking number before looking anything up.",
  "Prices include VAT. Delivery is free above 100 PLN; below that it costs 9.99 PLN.",
  "Do not give medical, legal or financial advice; suggest speaking to a specialist instead.",
  "Confirm every date and time back to the customer in words, e.g. 'Tuesday the 14th at 3 pm'.",
  "When you do not know the answer, say so and offer to pass the question on.",
  "Speak the customer's language: reply in Polish when they write in Polish.",
  "Keep personal data to what the task needs; never read out a full card number."
]

/** A system prompt of about `chars` characters: the business, its goal, then policies. */
const promptOf = (next: () => number, business: (typeof businesses)[number], chars: number) => {
  let prompt = `You are Ada, the assistant of ${business.name}, ${business.what}. Your goal: ${business.goal}.\n\n## Rules\n`
  for (let i = 0; prompt.length < chars; i++) prompt += `- ${pick(next, policies)} (rule ${i + 1})\n`
  return prompt
}

/** A FAQ document of about `chars` characters about the business. */
const knowledgeOf = (next: () => number, business: (typeof businesses)[number], chars: number) => {
  const topics = ["opening hours", "prices", "payment", "cancellation", "parking", "delivery", "returns"]
  const topicsAnswers = [
    "We are open from 8 to 20 on weekdays and from 9 to 14 on Saturdays.",
    "The standard price is 150 PLN; members pay 120 PLN.",
    "We take cards, BLIK and bank transfers; cash only on site.",
    "You can cancel free of charge up to 24 hours before; later we charge 50 PLN.",
    "There is free parking behind the building, entrance from the side street.",
    "Delivery takes one to three working days within Poland.",
    "Returns are accepted within 30 days with the receipt."
  ]
  let text = `${business.name}: frequently asked questions.\n\n`
  for (let i = 0; text.length < chars; i++) {
    const t = Math.floor(next() * topics.length)
    text += `Q: What about ${topics[t]} (${i})?\nA: ${topicsAnswers[t]} ${pick(next, policies)}\n\n`
  }
  return text
}

const toolKinds = [
  { name: "Order status", path: "orders", parameter: "order_number" },
  { name: "Free slots", path: "slots", parameter: "date" },
  { name: "Account balance", path: "accounts", parameter: "customer_id" },
  { name: "Weather lookup", path: "weather", parameter: "city" }
]

/** A tool's function name, as the engine names it (`FunctionNames.base`). */
const functionName = (toolName: string) => toolName.toLowerCase().replace(/[^a-z0-9_]/g, "_")

/** Answers a setup request's JSON, or throws with what the server said. */
const ok = async (
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown
) => {
  const answer = await call(port, method, path, headers, body)
  if (answer.status !== 200)
    throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text.slice(0, 300)}`)
  return JSON.parse(answer.text)
}

/** Uploads a text document and waits (at most 60 s) until it is processed. */
const uploadDocument = async (port: number, apiKey: string, name: string, content: string) => {
  const form = new FormData()
  form.append("file", new Blob([content], { type: "text/plain" }), name)
  const created = await fetch(`http://127.0.0.1:${port}/api/v1/knowledge-base/documents`, {
    method: "POST",
    headers: { "x-api-key": apiKey },
    body: form,
    signal: AbortSignal.timeout(30_000)
  })
  const document = (await created.json()) as { id: number; document_uuid: string }
  if (created.status !== 200) throw new Error(`uploading a document answered ${created.status}`)
  const deadline = Date.now() + 60_000
  for (;;) {
    const read = await ok(port, "GET", `/api/v1/knowledge-base/documents/${document.id}`, {
      "x-api-key": apiKey
    })
    if (read.processing_status === "completed") return document.document_uuid
    if (read.processing_status === "failed" || Date.now() > deadline)
      throw new Error(`document ${name} was not processed: ${JSON.stringify(read)}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

/**
 * Makes `organizations` organizations (operator API) with `agentsEach` agents each: prompts of 300 to
 * 4,000 characters, a first message or none, zero to three HTTP API tools at `receiverOrigin`, an end-call
 * tool for most, a knowledge document (2 to 30 KB) for about half, disposition codes and data fields.
 */
export const seed = async (
  port: number,
  adminToken: string,
  receiverOrigin: string,
  organizations: number,
  agentsEach: number
): Promise<ReadonlyArray<ChatAgent>> => {
  const next = random(20261127)
  const agents: Array<ChatAgent> = []
  for (let o = 0; o < organizations; o++) {
    const business = businesses[o % businesses.length]!
    const organization = await ok(
      port,
      "POST",
      "/admin/v1/organizations",
      { authorization: `Bearer ${adminToken}` },
      {
        name: `${business.name} ${o + 1}`
      }
    )
    const apiKey = organization.api_key as string
    const headers = { "x-api-key": apiKey }
    const tools = new Map<string, string>()
    for (const kind of toolKinds) {
      const tool = await ok(port, "POST", "/api/v1/tools", headers, {
        name: kind.name,
        definition: {
          type: "http_api",
          config: {
            method: "GET",
            url: `${receiverOrigin}/${kind.path}/{{${kind.parameter}}}`,
            parameters: [
              { name: kind.parameter, type: "string", description: `The ${kind.parameter.replace("_", " ")}` }
            ],
            response_fields: ["status", "detail"]
          }
        }
      })
      tools.set(kind.name, tool.tool_uuid)
    }
    const hangUp = await ok(port, "POST", "/api/v1/tools", headers, {
      name: "End chat",
      definition: { type: "end_call", config: {} }
    })
    for (let a = 0; a < agentsEach; a++) {
      const agent = await ok(port, "POST", "/api/v1/agents/from-script", headers, {
        agent: {
          greeting: `Hello {{initial_context.first_name}}, this is Ada from ${business.name}.`,
          agent_goal: business.goal,
          conversation_structure: ["Find out what the customer needs", "Help", "Confirm the next step"],
          data_fields: [
            { name: "email", description: "The customer's e-mail address" },
            { name: "reference", description: "The order or booking number" }
          ]
        }
      })
      const offered = toolKinds.filter(() => next() < 0.5).slice(0, 3)
      const ends = next() < 0.8
      const knowledge =
        next() < 0.5
          ? [
              await uploadDocument(
                port,
                apiKey,
                `faq-${a}.txt`,
                knowledgeOf(next, business, 2_000 + Math.floor(next() * 28_000))
              )
            ]
          : []
      await ok(port, "PATCH", `/api/v1/agents/${agent.public_id}`, headers, {
        system_prompt: promptOf(next, business, 300 + Math.floor(next() * 3_700)),
        first_message: next() < 0.7 ? `Hello, this is Ada from ${business.name}. How can I help?` : "",
        tools: [...offered.map((kind) => tools.get(kind.name)!), ...(ends ? [hangUp.tool_uuid] : [])],
        knowledge_base_document_ids: knowledge,
        call_disposition_codes: {
          resolved: "The customer's request was handled",
          follow_up: "A person must call back"
        }
      })
      agents.push({
        apiKey,
        agentId: agent.public_id,
        functions: offered.map((kind) => functionName(kind.name)),
        endFunction: ends ? functionName("End chat") : null
      })
    }
  }
  return agents
}

const openers = [
  "Hi",
  "Hello, I have a question.",
  "Good morning! I would like some help with my booking please.",
  "Dzień dobry, mam pytanie o zamówienie.",
  "Hey there, quick one: are you open this Saturday and do I need to book ahead, or can I just walk in?"
]

const bodies = [
  "What are your opening hours?",
  "How much does it cost for two people?",
  "Can I pay by BLIK?",
  "I want to cancel, what does it cost?",
  "Where can I park?",
  "My email is jan.kowalski@example.com, please note it.",
  "Could you move it to Tuesday the 14th at 3 pm instead?",
  "I was charged twice last month and nobody answered my e-mails. I have been a customer for six years and " +
    "this is the first time something like this happened; I would really like to get it sorted today, " +
    "ideally with the extra charge refunded to the card I used, which ends in 4471."
]

/** A longer message: a story of `sentences` sentences (users paste long texts too). */
const story = (next: () => number, sentences: number) =>
  Array.from({ length: sentences }, () => pick(next, bodies)).join(" ")

/**
 * The plan of chat `number` (the same for every server): an agent, 2 to 6 messages of different lengths
 * (some naming one of the agent's functions, about one in five streamed), each made unique by the
 * customer's reference `R<number>-<message>` (how a turn's model requests are told apart), and, for about
 * one chat in eight with an end-call tool, a goodbye naming it as the last message.
 */
export const plan = (agents: ReadonlyArray<ChatAgent>, number: number): ChatPlan => {
  const next = random(number * 7919 + 17)
  const agent = agents[number % agents.length]!
  const count = 2 + Math.floor(next() * 5)
  const endsByAgent = agent.endFunction !== null && next() < 0.125
  const messages = Array.from({ length: count }, (_, i): PlannedMessage => {
    const reference = `My reference is R${number}-${i}.`
    const streamed = next() < 0.2
    if (i === count - 1 && endsByAgent)
      return { text: `Thanks, that's all, goodbye! ${reference} Please ${agent.endFunction} now.`, streamed }
    if (i === 0) return { text: `${pick(next, openers)} ${reference}`, streamed }
    const roll = next()
    if (roll < 0.2 && agent.functions.length > 0)
      return { text: `${reference} Can you check ${pick(next, agent.functions)} for me?`, streamed }
    if (roll < 0.35) return { text: `${story(next, 2 + Math.floor(next() * 6))} ${reference}`, streamed }
    return { text: `${pick(next, bodies)} ${reference}`, streamed }
  })
  return { agent, messages, endsByAgent }
}
