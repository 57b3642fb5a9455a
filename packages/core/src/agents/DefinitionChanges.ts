import { Either } from "effect"
import * as E164 from "../phone-numbers/E164.js"
import type { AgentToolRef, WorkflowDefinition } from "./Agent.js"
import { InvalidTransferNumber } from "./AgentErrors.js"

/**
 * What `PATCH /agents/{agent_id}` may change in an agent's definition. Each field given replaces the
 * current one in a new version; the fields not given are carried over from the current version.
 */
export interface DefinitionChanges {
  readonly system_prompt?: string
  readonly first_message?: string
  /** The agent's tools, by `tool_uuid`, in order; its booking tool (if any) is kept. */
  readonly tools?: ReadonlyArray<string>
  /** Numbers a transfer may go to when the model names one; any international spelling, stored in E.164. */
  readonly transfer_numbers?: ReadonlyArray<string>
  /** The knowledge-base documents the agent answers from, by their integer id (checked by `Agents`). */
  readonly knowledge_base_document_ids?: ReadonlyArray<number>
}

/** The bounds of a definition change (docs/limits.md, "Agents and their tools"). */
export const limits = {
  /** The longest system prompt a PATCH may set, in characters (accepted improvements append beyond it). */
  systemPromptChars: 100_000,
  firstMessageChars: 5_000,
  /** The most tools one agent version may carry. */
  tools: 50,
  /** The most transfer numbers one agent version may carry. */
  transferNumbers: 20,
  /** The longest `tool_uuid` accepted (a uuid has 36 characters). */
  toolUuidChars: 64,
  /** The most knowledge-base documents one agent version answers from. */
  knowledgeDocuments: 50
} as const

/** True when the changes change nothing (no field given): no version is made. */
export const isEmpty = (changes: DefinitionChanges): boolean =>
  changes.system_prompt === undefined &&
  changes.first_message === undefined &&
  changes.tools === undefined &&
  changes.transfer_numbers === undefined &&
  changes.knowledge_base_document_ids === undefined

/** The first occurrence of each item, in order. */
const distinct = (items: ReadonlyArray<string>): ReadonlyArray<string> => [...new Set(items)]

/**
 * The changes with their transfer numbers in E.164 (duplicates after normalisation dropped) and their
 * tools without repeats; the first number that is not a valid phone number fails, with its index.
 */
export const deduplicatedWithE164Numbers = (
  changes: DefinitionChanges,
  numbersInConfiguration = false
): Either.Either<DefinitionChanges, InvalidTransferNumber> => {
  const numbers: Array<string> = []
  for (const [index, input] of (changes.transfer_numbers ?? []).entries()) {
    const normalized = E164.normalize(input)
    if (Either.isLeft(normalized))
      return Either.left(
        new InvalidTransferNumber({ index, input, in_configuration: numbersInConfiguration })
      )
    numbers.push(normalized.right)
  }
  return Either.right({
    ...changes,
    ...(changes.tools === undefined ? {} : { tools: distinct(changes.tools) }),
    ...(changes.knowledge_base_document_ids === undefined
      ? {}
      : { knowledge_base_document_ids: [...new Set(changes.knowledge_base_document_ids)] }),
    ...(changes.transfer_numbers === undefined ? {} : { transfer_numbers: distinct(numbers) })
  })
}

/** The `tool_uuid`s a definition refers to, in order. */
export const toolUuidsOf = (definition: WorkflowDefinition): ReadonlyArray<string> =>
  definition.tools.flatMap((ref) => (ref.type === "tool" ? [ref.tool_uuid] : []))

/**
 * The next version's definition: the current one with the given fields replaced. The tool references are
 * the given tools (in order) followed by the current booking references, which a PATCH does not touch.
 */
export const apply = (current: WorkflowDefinition, changes: DefinitionChanges): WorkflowDefinition => {
  const tools: ReadonlyArray<AgentToolRef> =
    changes.tools === undefined
      ? current.tools
      : [
          ...changes.tools.map((tool_uuid) => ({ type: "tool" as const, tool_uuid })),
          ...current.tools.filter((ref) => ref.type === "booking")
        ]
  return {
    ...current,
    ...(changes.system_prompt === undefined ? {} : { system_prompt: changes.system_prompt }),
    ...(changes.first_message === undefined ? {} : { first_message: changes.first_message }),
    tools,
    ...(changes.transfer_numbers === undefined ? {} : { transfer_numbers: changes.transfer_numbers }),
    ...(changes.knowledge_base_document_ids === undefined
      ? {}
      : { knowledge_base_document_ids: changes.knowledge_base_document_ids })
  }
}
