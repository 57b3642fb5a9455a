/** The conversation tests' paths and validation helpers. */

export type Body = Record<string, any>

export const conversations = (agent: string | number) => `/api/v1/agents/${agent}/conversations`

export const locsOf = (body: unknown) =>
  (body as { detail: Array<{ loc: Array<string | number> }> }).detail.map((d) => d.loc.join("."))
