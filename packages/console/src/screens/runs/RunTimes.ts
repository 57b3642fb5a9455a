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

/**
 * A signed download link of the API on the console's own origin: the same path from `/api/` on and the same
 * query (the signature), under the address the console reaches the API at (`apiRoot`). The API makes its
 * links on its public address, which may not be the one the console was opened at, and the console's pages
 * may fetch from their own origin only.
 */
export const onThisOrigin = (link: string, apiRoot: string): string | undefined => {
  let url: URL
  try {
    url = new URL(link, "http://link.invalid/")
  } catch {
    return undefined
  }
  const at = url.pathname.lastIndexOf("/api/v1/")
  return at < 0 ? undefined : apiRoot.replace(/\/$/, "") + url.pathname.slice(at) + url.search
}
