/** Whether a UTF-16 code unit is the first half of a surrogate pair (a character beyond the BMP). */
export const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff

/** Whether a UTF-16 code unit is the second half of a surrogate pair. */
export const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff

/**
 * The text cut to at most `limit` code units (`string.length`) without splitting a surrogate pair: when
 * the cut would fall between the halves of an emoji or other non-BMP character, the whole character is
 * left out. The result is valid UTF-16 whenever the text was (PostgreSQL refuses a lone surrogate in JSON).
 */
export const cut = (text: string, limit: number): string => {
  if (text.length <= limit) return text
  const end = limit > 0 && isHighSurrogate(text.charCodeAt(limit - 1)) ? limit - 1 : limit
  return text.slice(0, Math.max(0, end))
}
