import type { AgentDefinition } from "../agents/Agent.js"
import { planOf } from "../agents/Agent.js"
import * as CallAnalysis from "../analysis/CallAnalysis.js"
import type { ConversationGuide } from "../language-model/LanguageModel.js"
import type { AgentFunction } from "./AgentFunctions.js"
import * as FaqEntries from "./FaqEntries.js"

/**
 * The guide a rule-based model walks (see `ConversationGuide`): the agent version's plan, data fields and
 * first message, its functions' trigger phrases and end function, the FAQ written in its prompt and in the
 * knowledge given for this message, and its disposition codes.
 */
export const of = (input: {
  readonly definition: AgentDefinition
  readonly system_prompt: string
  readonly first_message: string
  readonly functions: ReadonlyArray<AgentFunction>
  readonly knowledge: ReadonlyArray<string>
  readonly disposition_codes: Readonly<Record<string, unknown>>
}): ConversationGuide => {
  const workflow = input.definition.workflow_definition
  const end = input.functions.find((f) => f.tool.definition.type === "end_call")
  return {
    first_message: input.first_message,
    plan: planOf(workflow),
    faq: [input.system_prompt, ...input.knowledge].flatMap(FaqEntries.parse),
    knowledge: input.knowledge,
    data_fields: workflow.gathered_fields,
    triggers: Object.fromEntries(
      input.functions.filter((f) => f.triggers.length > 0).map((f) => [f.function.name, f.triggers])
    ),
    end_function: end?.function.name ?? null,
    disposition_codes: CallAnalysis.dispositionCodes(input.disposition_codes),
    transcripts: []
  }
}
