import type { Agent, AgentDefinition } from "../agents/Agent.js"
import { planOf } from "../agents/Agent.js"
import type { GuideTranscript, ModelOptions, StructuredRequest } from "../language-model/LanguageModel.js"
import { emptyGuide } from "../language-model/LanguageModel.js"
import * as ImprovementSuggestions from "../improvements/ImprovementSuggestions.js"
import * as CodePoints from "../text/CodePoints.js"
import type { TranscriptFragment } from "../transcripts/Transcript.js"
import * as CallAnalysis from "./CallAnalysis.js"

/**
 * The structured requests of the work after conversations: what a model is asked about an ended run
 * (`call_analysis`) and about an agent's recent runs (`improvement_suggestions`), bounded so that one
 * request never grows with a long conversation or a busy agent.
 */

/** The most characters of a run's conversation an analysis reads (its end, where the outcome is). */
export const analysisTranscriptChars = 40_000

/** The most characters of the agent's prompt a request includes. */
export const promptChars = 8_000

/** The most recent runs a generation of suggestions reads, and the characters of each it reads. */
export const improvementRuns = 10
export const improvementTranscriptChars = 4_000

/** The model choices of an agent (`workflow_configurations.model`). */
export const optionsOf = (agent: Agent): ModelOptions => {
  const choice = agent.workflow_configurations.model
  return {
    ...(choice?.model === undefined ? {} : { model: choice.model }),
    ...(choice?.temperature === undefined ? {} : { temperature: choice.temperature }),
    ...(choice?.max_tokens === undefined ? {} : { max_tokens: choice.max_tokens })
  }
}

/** A conversation as the guide carries it. */
export const guideTranscript = (
  runId: number | null,
  fragments: ReadonlyArray<TranscriptFragment>
): GuideTranscript => ({
  run_id: runId,
  turns: fragments.map((f) => ({ role: f.role, text: f.text }))
})

/**
 * A conversation as text, one line per message (`user: …`, `assistant: …`), keeping at most its last
 * `limit` characters: from the first line that starts within them, or, when the last line alone is longer,
 * that line's end (never half a character).
 */
export const conversationText = (fragments: ReadonlyArray<TranscriptFragment>, limit: number): string => {
  const text = fragments.map((f) => `${f.role}: ${f.text}`).join("\n")
  if (text.length <= limit) return text
  const from = text.length - limit
  const lineStart = text[from - 1] === "\n" ? from : text.indexOf("\n", from) + 1
  const start = lineStart > 0 ? lineStart : CodePoints.isLowSurrogate(text.charCodeAt(from)) ? from + 1 : from
  return `(the conversation's beginning is left out)\n${text.slice(start)}`
}

/** The prompt cut to `promptChars`. */
const boundedPrompt = (prompt: string): string =>
  prompt.length <= promptChars
    ? prompt
    : `${CodePoints.cut(prompt, promptChars)}\n(the rest of the prompt is left out)`

/** The `call_analysis` request of an ended run. */
export const callAnalysis = (input: {
  readonly runId: number
  readonly agent: Agent
  readonly definition: AgentDefinition
  /** The prompt the run was talked with (placeholders filled). */
  readonly system_prompt: string
  readonly fragments: ReadonlyArray<TranscriptFragment>
}): StructuredRequest<CallAnalysis.Analysis, unknown> => {
  const workflow = input.definition.workflow_definition
  const schema = CallAnalysis.schemaFor(workflow.gathered_fields, input.agent.call_disposition_codes)
  return {
    ...optionsOf(input.agent),
    name: CallAnalysis.name,
    description: "What an ended conversation gathered, how it ended, and what happened",
    schema: schema as unknown as StructuredRequest<CallAnalysis.Analysis, unknown>["schema"],
    messages: [
      {
        role: "system",
        content: [
          "You analyse a finished conversation between an AI agent (assistant) and a person (user).",
          "Fill gathered_data with what the person said for each field, null when the conversation did not say it.",
          ...("disposition" in schema.fields
            ? ["Choose the disposition that best describes how the conversation ended."]
            : []),
          `Write a factual summary of at most ${CallAnalysis.summaryChars} characters. Use only what the conversation says.`,
          "",
          "The agent's instructions were:",
          boundedPrompt(input.system_prompt)
        ].join("\n")
      },
      {
        role: "user",
        content: `The conversation:\n${conversationText(input.fragments, analysisTranscriptChars)}`
      }
    ],
    guide: {
      ...emptyGuide,
      plan: planOf(workflow),
      data_fields: workflow.gathered_fields,
      disposition_codes: CallAnalysis.dispositionCodes(input.agent.call_disposition_codes),
      transcripts: [guideTranscript(input.runId, input.fragments)]
    }
  }
}

/** The `improvement_suggestions` request over an agent's recent runs. */
export const improvementSuggestions = (input: {
  readonly agent: Agent
  readonly definition: AgentDefinition
  readonly runs: ReadonlyArray<{
    readonly run_id: number
    readonly fragments: ReadonlyArray<TranscriptFragment>
  }>
  /** The texts of the agent's pending suggestions, not to be proposed again. */
  readonly pending: ReadonlyArray<string>
}): StructuredRequest<ImprovementSuggestions.Generated, unknown> => {
  const workflow = input.definition.workflow_definition
  const runs = input.runs.slice(0, improvementRuns)
  return {
    ...optionsOf(input.agent),
    name: ImprovementSuggestions.name,
    description:
      "Additions to an agent's system prompt that would have made its recent conversations go better",
    schema: ImprovementSuggestions.schema as unknown as StructuredRequest<
      ImprovementSuggestions.Generated,
      unknown
    >["schema"],
    messages: [
      {
        role: "system",
        content: [
          "You improve the instructions of an AI agent that talks with people.",
          "Read its system prompt and its recent conversations, and propose at most",
          `${ImprovementSuggestions.maxSuggestions} specific additions to the system prompt that would have made these conversations go better`,
          "(a question it could not answer, an objection it did not handle, a step it skipped).",
          "For each: text (the instruction to add, written to the agent), rationale, and source_run_id (the run that shows it).",
          "Propose nothing the prompt already says, and none of the pending suggestions. Propose none when nothing would help."
        ].join(" ")
      },
      {
        role: "user",
        content: [
          "System prompt:",
          boundedPrompt(workflow.system_prompt),
          "",
          ...(input.pending.length === 0
            ? []
            : ["Pending suggestions:", ...input.pending.map((t) => `- ${t}`), ""]),
          "Recent conversations:",
          ...runs.map(
            (run) => `### Run ${run.run_id}\n${conversationText(run.fragments, improvementTranscriptChars)}`
          )
        ].join("\n")
      }
    ],
    guide: {
      ...emptyGuide,
      first_message: workflow.first_message,
      plan: planOf(workflow),
      data_fields: workflow.gathered_fields,
      disposition_codes: CallAnalysis.dispositionCodes(input.agent.call_disposition_codes),
      transcripts: runs.map((run) => guideTranscript(run.run_id, run.fragments))
    }
  }
}
