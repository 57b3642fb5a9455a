import { Schema } from "effect"

/**
 * A whole number written the one canonical way (`42`, not `0x2a`, `4.2e1` or ` 42`), so that an id has
 * exactly one spelling.
 */
export const CanonicalInt = Schema.String.pipe(
  Schema.pattern(/^(0|-?[1-9][0-9]{0,15})$/, { message: () => "expected a whole number such as 42" }),
  Schema.compose(Schema.NumberFromString),
  Schema.int()
)

/** A positive integer id in a path segment. */
export const IntId = CanonicalInt.pipe(Schema.positive(), Schema.lessThanOrEqualTo(Number.MAX_SAFE_INTEGER))

/** The `{agent_id}` path segment: public id or number. */
export const AgentIdParam = Schema.String.annotations({
  description: "The agent's public id (agent_...) or its number"
})
