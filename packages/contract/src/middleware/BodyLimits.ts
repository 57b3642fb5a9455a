import { ValidationError } from "../errors/ApiErrors.js"
import * as StorableText from "./StorableText.js"

/** The largest JSON body accepted (1 MiB); uploads (multipart, audio) have limits of their own. */
export const maxJsonBytes = 1024 * 1024

/** The deepest nesting a JSON body may have; free-form objects inside it are bounded further. */
export const maxJsonDepth = 64

/** The deepest bracket nesting of a JSON text, counting only brackets outside strings; linear, no recursion. */
export const nestingDepth = (text: string): number => {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92)
        i++ // backslash: skip the escaped character
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 123 || c === 91) deepest = Math.max(deepest, ++depth)
    else if (c === 125 || c === 93) depth--
  }
  return deepest
}

/** Only a `\u` escape can put such characters in a JSON text that was read as UTF-8. */
const mayHoldUnstorableText = (text: string) => text.includes("\\u")

const parsedOrUndefined = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined // malformed JSON is reported where the body is decoded
  }
}

const refuse = (msg: string) => new ValidationError({ detail: [{ loc: ["body"], msg, type: "value_error" }] })

/**
 * Refuses a JSON text that nests too deep or carries text no database can store (NUL, unpaired
 * surrogates) before anything decodes it: such input cannot be valid for any endpoint, and decoding and
 * describing it would cost time and stack for nothing (or a storage error later). Its size is limited
 * while it is read (`RequestEdge`).
 */
export const checkJsonText = (text: string): ValidationError | undefined => {
  if (nestingDepth(text) > maxJsonDepth)
    return refuse(`JSON must not nest deeper than ${maxJsonDepth} levels`)
  if (mayHoldUnstorableText(text) && StorableText.hasUnstorableText(parsedOrUndefined(text)))
    return refuse(StorableText.message)
  return undefined
}
