/** A media type's essence: `type/subtype`, lower case, without parameters (`; charset=utf-8`). */
export const essence = (contentType: string): string => contentType.split(";", 1)[0]!.trim().toLowerCase()

const token = /^[a-z0-9!#$&^_.+-]+$/

/** `application/json`, or a structured `application/<x>+json` such as `application/merge-patch+json`. */
export const isJson = (mediaType: string): boolean => {
  if (mediaType === "application/json") return true
  if (!mediaType.startsWith("application/") || !mediaType.endsWith("+json")) return false
  const subtype = mediaType.slice("application/".length, -"+json".length)
  return subtype.length > 0 && token.test(subtype)
}
