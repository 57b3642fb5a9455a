import { Schema } from "effect"

/** A positive integer id in a path segment. */
export const IntId = Schema.NumberFromString.pipe(
  Schema.int(),
  Schema.positive(),
  Schema.lessThanOrEqualTo(Number.MAX_SAFE_INTEGER)
)

/** The `{agent_id}` path segment: public id or number. */
export const AgentIdParam = Schema.String.annotations({
  description: "The agent's public id (agent_...) or its number"
})
