import { useEffect } from "preact/hooks"
import type { Load } from "./useLoad.js"

/**
 * Loads `load` again `everyMillis` after each load ends, for as long as `active` holds (a running
 * campaign): the next request is only scheduled once the last one answered, so a slow server is never
 * asked twice at once. It stops when `active` turns false or the component goes away.
 */
export const usePollWhile = (active: boolean, everyMillis: number, load: Load<unknown>): void => {
  const waiting = load.refreshing
  useEffect(() => {
    if (!active || waiting) return
    const timer = setTimeout(load.reload, everyMillis)
    return () => clearTimeout(timer)
  }, [active, waiting, everyMillis])
}
