// The test form's fields as the body of `POST /tools/{tool_uuid}/test`. Pure (tested in
// packages/console/test/screens/ToolDraft.test.ts).

/** A JSON object typed in a field: the object, or what is wrong with it (named by the field's label). */
export const jsonObjectOf = (text: string, label: string): Record<string, unknown> | string => {
  if (text.trim() === "") return {}
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return `${label} is not JSON: write an object such as {"order_id": "A-17"}.`
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return `${label} must be a JSON object, such as {"order_id": "A-17"}.`
  return value as Record<string, unknown>
}

/** The test's body, or what is wrong with the fields. */
export const testBodyOf = (fields: {
  readonly arguments: string
  readonly initialContext: string
  readonly agentId: string
}):
  | {
      readonly arguments: Record<string, unknown>
      readonly initial_context: Record<string, unknown>
      readonly agent_id?: string
    }
  | string => {
  const args = jsonObjectOf(fields.arguments, "Arguments")
  if (typeof args === "string") return args
  const initialContext = jsonObjectOf(fields.initialContext, "Initial context")
  if (typeof initialContext === "string") return initialContext
  const agentId = fields.agentId.trim()
  return agentId === ""
    ? { arguments: args, initial_context: initialContext }
    : { arguments: args, initial_context: initialContext, agent_id: agentId }
}

/** A value of the answer as indented JSON (text only). */
export const prettyJson = (value: unknown): string => {
  if (value === undefined) return "—"
  try {
    return JSON.stringify(value, null, 2)
  } catch {
    return String(value)
  }
}
