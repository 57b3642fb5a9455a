import { Schema } from "effect"

/** An agent's number; responses carry it as `id` and `workflow_id`. */
export const AgentId = Schema.Int.pipe(Schema.positive(), Schema.brand("AgentId"))
export type AgentId = typeof AgentId.Type

/** An agent's public id: `agent_` and 20 characters of `[A-Za-z0-9]`. */
export const AgentPublicId = Schema.String.pipe(
  Schema.pattern(/^agent_[A-Za-z0-9]{20}$/),
  Schema.brand("AgentPublicId")
)
export type AgentPublicId = typeof AgentPublicId.Type

/** A version of an agent's definition. */
export const AgentDefinitionId = Schema.Int.pipe(Schema.positive(), Schema.brand("AgentDefinitionId"))
export type AgentDefinitionId = typeof AgentDefinitionId.Type

/** How a path addresses an agent: `{agent_id}` takes either the public id or the number. */
export type AgentRef =
  | { readonly _tag: "PublicId"; readonly publicId: AgentPublicId }
  | { readonly _tag: "Number"; readonly id: AgentId }

const isPublicId = Schema.is(AgentPublicId)

/**
 * Reads an `{agent_id}` path segment. Anything that is neither a public id nor a positive safe integer
 * names no agent (the caller answers 404, like any unknown agent).
 */
export const parseAgentRef = (segment: string): AgentRef | undefined => {
  if (isPublicId(segment)) return { _tag: "PublicId", publicId: segment }
  if (/^[1-9][0-9]{0,15}$/.test(segment)) {
    const id = Number(segment)
    if (Number.isSafeInteger(id)) return { _tag: "Number", id: AgentId.make(id) }
  }
  return undefined
}

/** The public id made from 20 base62 characters. */
export const publicIdFrom = (body: string): AgentPublicId => AgentPublicId.make(`agent_${body}`)
