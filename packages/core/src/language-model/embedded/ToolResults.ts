import { cut } from "../../text/CodePoints.js"
import type { Phrases } from "./Phrasebook.js"
import { humanize } from "./Words.js"

/**
 * A function's result read back to the user in one sentence. A result shaped like the engine's tool
 * results (`ok`, `message`, `response`, `error`) says its `message` when it has one, that the call failed
 * (with the error's words) when it did, else what its response holds: a scalar as is, an object's first
 * scalar fields as `key: value`, a list's size and first item. Anything else is read the same way as a
 * response; text that is not JSON is said as it is, shortened.
 */

/** The most fields of a response read back. */
export const maxFacts = 5

/** The longest text taken from a result (a message, facts, an error), in characters. */
export const maxResultChars = 300

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const scalar = (value: unknown): string | undefined =>
  typeof value === "string"
    ? value.trim() === ""
      ? undefined
      : value.trim()
    : typeof value === "number" || typeof value === "boolean"
      ? String(value)
      : undefined

/** An object's scalar fields as `key: value`, at most `maxFacts`; one level into the first nested object. */
const factsOf = (value: Readonly<Record<string, unknown>>, depth = 0): string | undefined => {
  const facts = Object.entries(value).flatMap(([key, item]) => {
    const text = scalar(item)
    return text === undefined ? [] : [`${humanize(key)}: ${text}`]
  })
  if (facts.length > 0) return cut(facts.slice(0, maxFacts).join(", "), maxResultChars)
  if (depth > 0) return undefined
  const nested = Object.values(value).find(isRecord)
  return nested === undefined ? undefined : factsOf(nested, depth + 1)
}

const describe = (value: unknown, phrases: Phrases): string => {
  const text = scalar(value)
  if (text !== undefined) return phrases.found(cut(text, maxResultChars))
  if (Array.isArray(value)) {
    if (value.length === 0) return phrases.nothingFound
    if (value.length === 1) return describe(value[0], phrases)
    const first = isRecord(value[0]) ? factsOf(value[0]) : scalar(value[0])
    return phrases.foundMany(value.length, first ?? "…")
  }
  if (isRecord(value)) {
    const facts = factsOf(value)
    return facts === undefined ? phrases.done : phrases.found(facts)
  }
  return phrases.done
}

const resultKeys = ["ok", "message", "response", "error"]

const errorText = (error: unknown): string | null => {
  const text =
    scalar(error) ?? (isRecord(error) ? (scalar(error["detail"]) ?? scalar(error["message"])) : undefined)
  return text === undefined ? null : cut(text, maxResultChars)
}

/** The sentence that answers a function's result; `action` names what the function does, in words. */
export const sentenceFor = (content: string, action: string, phrases: Phrases): string => {
  let parsed: unknown
  try {
    parsed = JSON.parse(content)
  } catch {
    const text = content.trim()
    return text === "" ? phrases.done : phrases.found(cut(text, maxResultChars))
  }
  if (isRecord(parsed) && resultKeys.some((key) => Object.hasOwn(parsed, key))) {
    const message = scalar(parsed["message"])
    if (message !== undefined) return cut(message, maxResultChars)
    const failed = parsed["ok"] === false || (parsed["error"] !== undefined && parsed["error"] !== null)
    if (failed) return phrases.failed(action, errorText(parsed["error"]))
    return describe(parsed["response"], phrases)
  }
  return describe(parsed, phrases)
}
