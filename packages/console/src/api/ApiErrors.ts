/** A request the API refused or could not answer, with a message a person can read. */
export class ApiError extends Error {
  override readonly name = "ApiError"
  constructor(
    /** The HTTP status (0 when the server could not be reached). */
    readonly status: number,
    message: string
  ) {
    super(message)
  }
}

interface ValidationIssue {
  readonly loc?: ReadonlyArray<string | number>
  readonly msg?: string
}

/** Where a validation issue is: its location without the leading `body`, `query`, `path` or `header`. */
const locationOf = (loc: ReadonlyArray<string | number> | undefined): string => {
  const parts = (loc ?? []).map(String)
  const [first, ...rest] = parts
  const field = ["body", "query", "path", "header"].includes(first ?? "") ? rest : parts
  return field.join(".")
}

/**
 * What the API's error body says, as one readable message: `{detail}` as it is, a 422's list as
 * "field: message" lines joined; anything else (a proxy's page, nothing) as the status alone.
 */
export const messageOf = (status: number, body: unknown): string => {
  const detail = typeof body === "object" && body !== null ? (body as { detail?: unknown }).detail : undefined
  if (typeof detail === "string" && detail.trim() !== "") return detail
  if (Array.isArray(detail) && detail.length > 0)
    return (detail as ReadonlyArray<ValidationIssue>)
      .map((issue) => {
        const where = locationOf(issue.loc)
        const what = issue.msg ?? "is not valid"
        return where === "" ? what : `${where}: ${what}`
      })
      .join("; ")
  return `The server answered ${status}${statusText(status)}.`
}

const statusText = (status: number): string => {
  const known: Record<number, string> = {
    400: " (bad request)",
    401: " (the API key was refused)",
    403: " (forbidden)",
    404: " (not found)",
    409: " (conflict)",
    413: " (too large)",
    429: " (too many requests)",
    500: " (internal error)",
    502: " (bad gateway)",
    503: " (unavailable)",
    504: " (gateway timeout)"
  }
  return known[status] ?? ""
}
