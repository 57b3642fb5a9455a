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
 * Documents validation failures as the server answers them: a request that fails validation is answered
 * 422 (FastAPI's shape), never the framework's default 400; operations without any input document no 422.
 */
export const documentAs422 = (spec: Record<string, any>): Record<string, any> => {
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
  return spec
}
