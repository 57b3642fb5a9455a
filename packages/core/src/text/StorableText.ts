/**
 * Text as storage can keep it: PostgreSQL refuses the NUL character and a surrogate that is not half of a
 * pair, in text and in jsonb. Client input holding them is refused at the edge (422); text the engine did
 * not write itself (a language model's) is cleaned instead: each such character becomes U+FFFD.
 */

const unstorable = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** The replacement character. */
export const replacement = "\uFFFD"

/** The text with every NUL and unpaired surrogate replaced by U+FFFD. */
export const clean = (text: string): string => text.replace(unstorable, replacement)

/** A JSON-like value with every string (keys too) cleaned; other values as they are. */
export const cleanValue = <A>(value: A): A => {
  if (typeof value === "string") return clean(value) as A
  if (Array.isArray(value)) return value.map(cleanValue) as A
  if (typeof value === "object" && value !== null && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [clean(key), cleanValue(inner)])
    ) as A
  }
  return value
}
