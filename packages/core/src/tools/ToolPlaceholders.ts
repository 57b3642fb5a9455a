import * as InitialContextTemplate from "../templates/InitialContextTemplate.js"
import type { CheckedArguments } from "./ToolArguments.js"

/**
 * `{{name}}` and `{{initial_context.key}}` placeholders in an HTTP API tool's URL and header values.
 * `{{name}}` reads an argument; `{{initial_context.…}}` reads the run's initial context as prompts do
 * (`InitialContextTemplate`). Spaces inside the braces are allowed.
 */

const placeholderPattern = /\{\{([^{}]*)\}\}/g
const contextPrefix = "initial_context."

/**
 * Fills every placeholder in one pass (a filled value containing `{{…}}` is not filled again), each
 * value passed through `encode` (`encodeURIComponent` in a URL). An argument that was not given, or a
 * missing context key, fills as "".
 */
export const fill = (
  template: string,
  args: CheckedArguments,
  initialContext: Readonly<Record<string, unknown>>,
  encode: (value: string) => string = (value) => value
): string =>
  template.replace(placeholderPattern, (_placeholder, body: string) => {
    const name = body.trim()
    if (name.startsWith(contextPrefix)) {
      return encode(InitialContextTemplate.render(`{{${name}}}`, initialContext as Record<string, unknown>))
    }
    return Object.hasOwn(args, name) ? encode(String(args[name])) : ""
  })

/** The argument names a template's placeholders read (not the `initial_context.` ones). */
export const argumentNames = (template: string): ReadonlySet<string> => {
  const names = new Set<string>()
  for (const match of template.matchAll(placeholderPattern)) {
    const name = (match[1] ?? "").trim()
    if (!name.startsWith(contextPrefix)) names.add(name)
  }
  return names
}

/**
 * What each placeholder of a template is filled with (arguments and `initial_context.` keys alike, before
 * any encoding): when the template is a secret header's, each of these is a secret on its own, since a
 * receiver may echo the bare token of `Bearer {{token}}`.
 */
export const filledValues = (
  template: string,
  args: CheckedArguments,
  initialContext: Readonly<Record<string, unknown>>
): ReadonlyArray<string> => {
  const values: Array<string> = []
  fill(template, args, initialContext, (value) => {
    values.push(value)
    return value
  })
  return values
}
