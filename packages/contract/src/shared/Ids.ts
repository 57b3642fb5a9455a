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

/**
 * How a whole number in a path or query is documented: what it is, `integer` with its bounds (as FastAPI
 * documents it), not the string with a pattern and a filter name that its decoding goes through.
 */
export const documentedAsInteger = (bounds: {
  readonly minimum: number
  readonly maximum?: number
  readonly default?: number
}) => ({ jsonSchema: { type: "integer", ...bounds } })

/** A positive integer id in a path segment. */
export const IntId = CanonicalInt.pipe(
  Schema.positive(),
  Schema.lessThanOrEqualTo(Number.MAX_SAFE_INTEGER)
).annotations(documentedAsInteger({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }))

/** The `{agent_id}` path segment: public id or number. */
export const AgentIdParam = Schema.String.annotations({
  description: "The agent's public id (agent_...) or its number"
})
