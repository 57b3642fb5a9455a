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

/**
 * Whether an `Accept` header names the media type (exactly, not through a wildcard) with a quality above
 * 0 (`q=0`: not wanted).
 */
export const accepts = (accept: string | undefined, mediaType: string): boolean =>
  accept !== undefined &&
  accept.split(",").some((range) => {
    if (essence(range) !== mediaType) return false
    const quality = range
      .split(";")
      .slice(1)
      .map((parameter) => parameter.trim().toLowerCase())
      .find((parameter) => parameter.startsWith("q="))
    return quality === undefined || !(Number(quality.slice(2)) <= 0)
  })
