type Operation = {
  responses?: Record<string, unknown>
  parameters?: ReadonlyArray<unknown>
  requestBody?: unknown
}

const validationResponse = {
  description: "Validation error: every failing field, `loc` starting at body, query, path or header",
  content: { "application/json": { schema: { $ref: "#/components/schemas/HTTPValidationError" } } }
}

/**
 * Effect's generator marks every `Schema.Unknown` with `$id: "/schemas/unknown"`; JSON Schema 2020-12
 * requires ids to be unique in a document, so these marker ids are removed (the schemas stay `{}`-like).
 */
const removeMarkerIds = (node: unknown): void => {
  if (Array.isArray(node)) {
    for (const item of node) removeMarkerIds(item)
  } else if (typeof node === "object" && node !== null) {
    const record = node as Record<string, unknown>
    if (typeof record.$id === "string" && record.$id.startsWith("/schemas/")) delete record.$id
    for (const value of Object.values(record)) removeMarkerIds(value)
  }
}

/**
 * Names the server (paths are relative to the origin that serves the document; an empty `servers` list is
 * an error for OpenAPI linters and generated clients) and the license, when the generator left them out.
 */
const documentServerAndLicense = (spec: Record<string, any>): void => {
  if (!Array.isArray(spec.servers) || spec.servers.length === 0) {
    spec.servers = [{ url: "/", description: "The server that serves this document" }]
  }
  spec.info = { license: { name: "Apache-2.0", identifier: "Apache-2.0" }, ...spec.info }
}

/**
 * Adjusts the generated document to what the server really does: a request that fails validation is
 * answered 422 (FastAPI's shape), never the framework's default 400; operations without any input
 * document no 422.
 */
export const fix = (spec: Record<string, any>): Record<string, any> => {
  const paths = spec.paths as Record<string, Record<string, Operation>>
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) {
      if (operation.responses === undefined) continue
      delete operation.responses["400"]
      const hasInput = (operation.parameters?.length ?? 0) > 0 || operation.requestBody !== undefined
      if (hasInput) operation.responses["422"] = validationResponse
      else delete operation.responses["422"]
    }
  }
  removeMarkerIds(spec)
  documentServerAndLicense(spec)
  return spec
}
