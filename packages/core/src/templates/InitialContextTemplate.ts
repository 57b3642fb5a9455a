import * as CodePoints from "../text/CodePoints.js"
/**
 * `{{initial_context.<path>}}` placeholders in agent prompts and messages, filled from a run's
 * `initial_context`. Spaces inside the braces are allowed (`{{ initial_context.key }}`) and the path may be
 * dotted (`initial_context.customer.name` reads `customer` then `name`; array items by index, `items.0`).
 */

const PREFIX = "initial_context."

// A placeholder is `{{`, anything without braces, `}}`; the body decides whether it is ours.
const placeholderPattern = /\{\{([^{}]*)\}\}/g

/** The path after `initial_context.` of a placeholder body, or undefined when it is not ours. */
const contextPath = (body: string): string | undefined => {
  const trimmed = body.trim()
  return trimmed.startsWith(PREFIX) ? trimmed.slice(PREFIX.length) : undefined
}

/** Own properties only, so `initial_context.constructor` cannot reach the prototype chain. */
const lookup = (context: Record<string, unknown>, path: string): unknown => {
  let current: unknown = context
  for (const key of path.split(".")) {
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, key)) return undefined
    current = (current as Record<string, unknown>)[key]
  }
  return current
}

/** How a value reads in a prompt: strings as is, numbers and booleans via String(), objects as JSON. */
const format = (value: unknown): string => {
  switch (typeof value) {
    case "string":
      return value
    case "number":
    case "boolean":
    case "bigint":
      return String(value)
    case "object": {
      if (value === null) return ""
      try {
        // `?? ""`: a `toJSON` may return undefined.
        return JSON.stringify(value) ?? ""
      } catch {
        // A cycle or a BigInt inside cannot come from JSON input; read nothing rather than fail the call.
        return ""
      }
    }
    default:
      // undefined, functions, symbols.
      return ""
  }
}

/**
 * Fills every `{{initial_context.<path>}}` in one pass (an inserted value containing `{{...}}` is not
 * rendered again). A missing key, null or undefined renders as "" so a voice agent never reads a
 * placeholder aloud; placeholders not starting with `initial_context.` are left untouched.
 */
export const render = (template: string, initialContext: Record<string, unknown>): string =>
  template.replace(placeholderPattern, (placeholder, body: string) => {
    const path = contextPath(body)
    return path === undefined ? placeholder : format(lookup(initialContext, path))
  })

/**
 * `render`, its result cut to at most `maxChars` characters (never splitting a character), built piece by
 * piece and stopped there: a template repeating a placeholder of a large value never grows past the bound
 * in memory.
 */
export const renderBounded = (
  template: string,
  initialContext: Record<string, unknown>,
  maxChars: number
): string => {
  let out = ""
  let from = 0
  for (const match of template.matchAll(placeholderPattern)) {
    const path = contextPath(match[1] ?? "")
    out +=
      template.slice(from, match.index) +
      (path === undefined ? match[0] : format(lookup(initialContext, path)))
    from = match.index + match[0].length
    if (out.length >= maxChars) return CodePoints.cut(out, maxChars)
  }
  return CodePoints.cut(out + template.slice(from), maxChars)
}

/** The paths (after `initial_context.`) a template references, in first-use order, without duplicates. */
export const placeholders = (template: string): Array<string> => {
  const paths = new Set<string>()
  for (const match of template.matchAll(placeholderPattern)) {
    const path = contextPath(match[1] ?? "")
    if (path !== undefined) paths.add(path)
  }
  return [...paths]
}
