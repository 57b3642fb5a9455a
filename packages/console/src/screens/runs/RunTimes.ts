/**
 * Where each turn of a transcript is in the call's recording, in seconds. The recording starts when the
 * call is answered, which is when its first turn starts (the runtime records the talk time), so a turn's
 * place is its start less the first turn's start; never negative, and 0 for a time that cannot be read.
 */
export const turnOffsets = (turns: ReadonlyArray<{ readonly start: string }>): ReadonlyArray<number> => {
  const first = turns.length === 0 ? Number.NaN : Date.parse(turns[0]!.start)
  return turns.map((turn) => {
    const seconds = (Date.parse(turn.start) - first) / 1000
    return Number.isFinite(seconds) && seconds > 0 ? seconds : 0
  })
}

/** A place in a recording as `m:ss`, e.g. `1:05`. */
export const formatOffset = (seconds: number): string => {
  const whole = Math.max(0, Math.floor(seconds))
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`
}

/** Where the API serves signed files (`GET /api/v1/files/download`): the only links the console follows. */
const filesPath = "/api/v1/files/"

/**
 * A signed download link of the API on the console's own origin: the same path from `/api/v1/files/` on
 * and the same query (the signature), under the address the console reaches the API at (`apiRoot`). The
 * API makes its links on its public address, which may not be the one the console was opened at, and the
 * console's pages may fetch from their own origin only. Anything else is refused (undefined): a link that
 * is not http(s), has no such path, or whose path would leave it once resolved (`..`, encoded or not).
 */
export const onThisOrigin = (link: string, apiRoot: string): string | undefined => {
  let url: URL
  try {
    url = new URL(link)
  } catch {
    return undefined
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined
  const at = url.pathname.lastIndexOf(filesPath)
  if (at < 0) return undefined
  const rest = url.pathname.slice(at + filesPath.length)
  if (rest === "" || /(^|\/)(\.|%2e){1,2}(\/|$)/i.test(rest) || /%2f|%5c|\\/i.test(rest)) return undefined
  return apiRoot.replace(/\/$/, "") + filesPath + rest + url.search
}
