const removeFrom = (node: unknown): void => {
  if (Array.isArray(node)) {
    for (const item of node) removeFrom(item)
  } else if (typeof node === "object" && node !== null) {
    const record = node as Record<string, unknown>
    if (typeof record.$id === "string" && record.$id.startsWith("/schemas/")) delete record.$id
    for (const value of Object.values(record)) removeFrom(value)
  }
}

/**
 * Removes the marker ids Effect's generator puts on every `Schema.Unknown` (`$id: "/schemas/unknown"`):
 * JSON Schema 2020-12 requires ids to be unique in a document (the schemas stay `{}`-like).
 */
export const remove = (spec: Record<string, any>): Record<string, any> => {
  removeFrom(spec)
  return spec
}
