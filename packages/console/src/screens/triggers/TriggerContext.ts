// A trigger's context as typed in its form (a pure rule, tested in `test/screens/CampaignRules.test.ts`).

/** A context typed as JSON: an object, or nothing when left empty; otherwise what is wrong with it. */
export const contextFrom = (
  text: string
): { readonly context: Record<string, unknown> | undefined } | { readonly error: string } => {
  if (text.trim() === "") return { context: undefined }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { error: 'The context must be JSON, e.g. {"source": "crm"}.' }
  }
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? { context: value as Record<string, unknown> }
    : { error: 'The context must be a JSON object, e.g. {"source": "crm"}.' }
}
