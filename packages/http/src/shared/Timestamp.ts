import { Schema } from "effect"

/** An instant on the wire: ISO 8601 with a timezone (`2026-03-01T12:00:00.000Z`). */
export const Timestamp = Schema.Date.annotations({
  jsonSchema: { type: "string", format: "date-time" },
  description: "ISO 8601 timestamp"
})
