/** The tool tests' definitions and validation helpers. */

export type Body = Record<string, any>

export const httpDefinition = {
  type: "http_api",
  config: {
    method: "POST",
    url: "https://crm.example.com/lookup",
    parameters: [{ name: "email", type: "string", description: "The caller's email" }]
  }
}

export const isoPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

export const locs = (body: unknown) =>
  (body as { detail: Array<{ loc: Array<string | number> }> }).detail.map((d) => d.loc.join("."))
