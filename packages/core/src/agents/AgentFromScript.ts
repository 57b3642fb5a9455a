import type {
  GatheredField,
  GraphEdge,
  GraphNode,
  PlanStep,
  WorkflowConfigurations,
  WorkflowDefinition
} from "./Agent.js"
import { defaultWorkflowConfigurations } from "./Agent.js"
import type { CallScriptRequest, DataField, ScriptStep } from "./CallScript.js"

/** Everything a new agent needs, composed from a call script. */
export interface ComposedAgent {
  readonly name: string
  readonly workflow_definition: WorkflowDefinition
  readonly workflow_configurations: WorkflowConfigurations
  readonly template_context_variables: Record<string, unknown>
  readonly call_disposition_codes: Record<string, unknown>
}

/** Titles of the prompt's sections, fixed so that clients and later edits can find them. */
export const sectionTitles = {
  role: "Role",
  plan: "Conversation plan",
  requiredPhrases: "Required phrases",
  objections: "Objection handling",
  knowledge: "Knowledge",
  avoidTopics: "Topics to avoid",
  gatheredData: "Data to gather"
} as const

/** The name an agent gets when the request has none: the goal, capitalised and cut at a word boundary. */
export const defaultName = (goal: string): string => {
  const spaced = goal.replace(/\s+/g, " ").trim()
  const clean = spaced.charAt(0).toUpperCase() + spaced.slice(1)
  if (clean === "") return "Call script agent"
  if (clean.length <= 60) return clean
  const cut = clean.slice(0, 60)
  const lastSpace = cut.lastIndexOf(" ")
  return `${(lastSpace > 20 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`
}

/** A plan step from either form the script allows. */
export const planStep = (step: ScriptStep): PlanStep =>
  typeof step === "string"
    ? { title: step.trim(), description: null }
    : { title: step.title.trim(), description: step.description?.trim() || null }

/** A gathered-data key: lower-case words joined by underscores (`Customer email` → `customer_email`). */
export const fieldKey = (name: string): string =>
  name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "") || "field"

/** A gathered field from either form the script allows. */
export const gatheredField = (field: DataField): GatheredField =>
  typeof field === "string"
    ? { name: fieldKey(field), description: field.trim() || null, type: "string" }
    : {
        name: fieldKey(field.name),
        description: field.description?.trim() || null,
        type: field.type ?? "string"
      }

/** Gathered fields of both lists, first occurrence of a key winning. */
const gatheredFields = (request: CallScriptRequest): ReadonlyArray<GatheredField> => {
  const seen = new Set<string>()
  const out: Array<GatheredField> = []
  for (const field of [...request.agent.data_fields, ...request.agent.custom_data_fields].map(
    gatheredField
  )) {
    if (seen.has(field.name)) continue
    seen.add(field.name)
    out.push(field)
  }
  return out
}

const nonEmpty = (values: ReadonlyArray<string>) => values.map((v) => v.trim()).filter((v) => v !== "")

const section = (title: string, lines: ReadonlyArray<string>): string | undefined =>
  lines.length === 0 ? undefined : `## ${title}\n${lines.join("\n")}`

const roleSection = (request: CallScriptRequest, name: string): string => {
  const script = request.agent
  const lines = [
    `You are the voice agent "${name}" on an ${script.call_direction} phone call.`,
    script.persona.trim() && `Persona: ${script.persona.trim()}`,
    script.agent_goal.trim() && `Goal of the call: ${script.agent_goal.trim()}`,
    script.formality.trim() && `Tone: ${script.formality.trim()}`,
    script.address_form.trim() && `Address the caller as follows: ${script.address_form.trim()}`,
    `Speak in the language with code "${request.language}".`,
    "Keep every reply short: this is a spoken conversation."
  ]
  return `## ${sectionTitles.role}\n${lines.filter((l) => l !== "").join("\n")}`
}

const knowledgeLines = (request: CallScriptRequest): ReadonlyArray<string> => {
  const facts = Object.entries(request.facts)
    .filter(([key, value]) => key.trim() !== "" && value.trim() !== "")
    .map(([key, value]) => `- ${key.trim()}: ${value.trim()}`)
  const faq = request.faq
    .filter((entry) => entry.question.trim() !== "" && entry.answer.trim() !== "")
    .map((entry) => `Q: ${entry.question.trim()}\nA: ${entry.answer.trim()}`)
  return [
    ...(facts.length > 0 ? ["Facts:", ...facts] : []),
    ...(faq.length > 0 ? ["Frequently asked questions:", ...faq] : []),
    ...(request.knowledge.trim() ? [request.knowledge.trim()] : []),
    ...(request.website.trim() ? [`Website: ${request.website.trim()}`] : [])
  ]
}

/** The system prompt: one titled section per kind of input, empty sections left out. */
export const systemPrompt = (request: CallScriptRequest, name: string): string => {
  const script = request.agent
  const plan = script.conversation_structure.map(planStep).filter((step) => step.title !== "")
  const fields = gatheredFields(request)
  const objections = script.objections.filter((o) => o.objection.trim() !== "" && o.response.trim() !== "")
  return [
    roleSection(request, name),
    section(
      sectionTitles.plan,
      plan.map((step, i) => `${i + 1}. ${step.title}${step.description ? `: ${step.description}` : ""}`)
    ),
    section(
      sectionTitles.requiredPhrases,
      nonEmpty(script.required_phrases).length === 0
        ? []
        : [
            "Say each of these phrases word for word at the right moment:",
            ...nonEmpty(script.required_phrases).map((p) => `- "${p}"`)
          ]
    ),
    section(
      sectionTitles.objections,
      objections.map((o) => `- When the caller says "${o.objection.trim()}", answer: "${o.response.trim()}"`)
    ),
    section(sectionTitles.knowledge, knowledgeLines(request)),
    section(
      sectionTitles.avoidTopics,
      nonEmpty(script.avoid_topics).length === 0
        ? []
        : [
            "Do not discuss these topics; steer back to the goal:",
            ...nonEmpty(script.avoid_topics).map((t) => `- ${t}`)
          ]
    ),
    section(
      sectionTitles.gatheredData,
      fields.map((f) => `- ${f.name} (${f.type})${f.description ? `: ${f.description}` : ""}`)
    )
  ]
    .filter((s): s is string => s !== undefined)
    .join("\n\n")
}

/** The conversation graph: start, one node per plan step in order, end. */
export const conversationGraph = (
  steps: ReadonlyArray<PlanStep>,
  greeting: string
): { nodes: ReadonlyArray<GraphNode>; edges: ReadonlyArray<GraphEdge> } => {
  const nodes: Array<GraphNode> = [
    { id: "start", type: "start", title: "Greeting", description: greeting },
    ...steps.map((step, i): GraphNode => ({ id: `step_${i + 1}`, type: "step", ...step })),
    { id: "end", type: "end", title: "End of call", description: null }
  ]
  const edges = nodes.slice(1).map((node, i): GraphEdge => ({ from: nodes[i]!.id, to: node.id }))
  return { nodes, edges }
}

/**
 * Composes an agent from a call script, deterministically: the greeting becomes the first message, the
 * steps the conversation plan, and required phrases and objection replies get their own prompt sections.
 */
export const compose = (request: CallScriptRequest): ComposedAgent => {
  const name = request.agent_name ?? defaultName(request.agent.agent_goal)
  const steps = request.agent.conversation_structure.map(planStep).filter((step) => step.title !== "")
  const graph = conversationGraph(steps, request.agent.greeting)
  return {
    name,
    workflow_definition: {
      system_prompt: systemPrompt(request, name),
      first_message: request.agent.greeting,
      language: request.language,
      nodes: graph.nodes,
      edges: graph.edges,
      gathered_fields: gatheredFields(request),
      tools:
        request.enable_booking && request.scheduler_connection_id !== undefined
          ? [{ type: "booking", scheduler_connection_id: request.scheduler_connection_id }]
          : [],
      // every version carries its transfer numbers, so a run keeps those of the version it was placed with
      transfer_numbers: defaultWorkflowConfigurations.transfer_numbers
    },
    workflow_configurations: { ...defaultWorkflowConfigurations, voice: request.agent_voice ?? null },
    template_context_variables: {},
    call_disposition_codes: {}
  }
}
