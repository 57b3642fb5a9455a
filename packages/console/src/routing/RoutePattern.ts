/** A screen's address relative to the console's base, e.g. `agents/:agentId/chat`; `""` is the overview. */
export type RoutePattern = string

/**
 * The parameters a path gives a pattern (`agents/:agentId` and `agents/agent_x` → `{agentId: "agent_x"}`),
 * or undefined when it does not match. Segments are compared whole; parameters are decoded.
 */
export const matchRoute = (
  pattern: RoutePattern,
  path: string
): Readonly<Record<string, string>> | undefined => {
  const wanted = segmentsOf(pattern)
  const given = segmentsOf(path)
  if (wanted.length !== given.length) return undefined
  const parameters: Record<string, string> = {}
  for (let i = 0; i < wanted.length; i++) {
    const expected = wanted[i]!
    const actual = given[i]!
    if (expected.startsWith(":")) {
      const value = decoded(actual)
      if (value === undefined || value === "") return undefined
      parameters[expected.slice(1)] = value
    } else if (expected !== actual) return undefined
  }
  return parameters
}

/** A path for a pattern with its parameters filled in (each encoded). */
export const pathOf = (pattern: RoutePattern, parameters: Readonly<Record<string, string | number>> = {}) =>
  segmentsOf(pattern)
    .map((segment) => {
      if (!segment.startsWith(":")) return segment
      const value = parameters[segment.slice(1)]
      if (value === undefined) throw new Error(`the parameter ${segment} of ${pattern} is missing`)
      return encodeURIComponent(String(value))
    })
    .join("/")

const segmentsOf = (path: string): Array<string> => path.split("/").filter((segment) => segment !== "")

const decoded = (segment: string): string | undefined => {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}
