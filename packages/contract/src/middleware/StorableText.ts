import type { HttpServerRequest } from "@effect/platform"
import { ValidationError } from "../errors/ApiErrors.js"

/**
 * Text that no database text column can store (PostgreSQL refuses both): the NUL character, and a
 * surrogate that is not half of a pair. Such input is refused with a 422 before it reaches a store, where
 * it would otherwise fail as a 500.
 */

const unpairedSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/**
 * Whether a parsed JSON value holds a string (or key) that no database text column can store: one with the
 * NUL character, or with a surrogate that is not part of a pair. Walks with an explicit stack.
 */
export const hasUnstorableText = (value: unknown): boolean => {
  const unstorable = (text: string) => text.includes("\u0000") || unpairedSurrogate.test(text)
  const pending: Array<unknown> = [value]
  while (pending.length > 0) {
    const next = pending.pop()
    if (typeof next === "string") {
      if (unstorable(next)) return true
    } else if (Array.isArray(next)) pending.push(...next)
    else if (typeof next === "object" && next !== null) {
      for (const [key, inner] of Object.entries(next)) {
        if (unstorable(key)) return true
        pending.push(inner)
      }
    }
  }
  return false
}

/** The message of the 422 for such text. */
export const message = "Text must not contain the NUL character (U+0000) or an unpaired surrogate"

const percentEncodedNul = /%00/i

/**
 * Refuses a request whose path or query carries an encoded NUL (`%00`), at `path` or `query`. (An invalid
 * percent-encoding, which is how an unpaired surrogate would have to arrive, never matches a route.)
 */
export const checkUrl = (request: HttpServerRequest.HttpServerRequest): ValidationError | undefined => {
  const queryAt = request.url.indexOf("?")
  const path = queryAt === -1 ? request.url : request.url.slice(0, queryAt)
  const query = queryAt === -1 ? "" : request.url.slice(queryAt + 1)
  const part = percentEncodedNul.test(path) ? "path" : percentEncodedNul.test(query) ? "query" : undefined
  return part === undefined
    ? undefined
    : new ValidationError({ detail: [{ loc: [part], msg: message, type: "value_error" }] })
}
