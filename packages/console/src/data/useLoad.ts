import { useEffect, useRef, useState } from "preact/hooks"

/** What a load has come to: still loading, its data, or why it failed. */
export type Loaded<T> =
  | { readonly state: "loading" }
  | { readonly state: "ready"; readonly data: T }
  | { readonly state: "failed"; readonly error: Error }

/**
 * A load and the means to run it again (after a change the screen made). `refreshing`: a load is under way;
 * `stale`: the data shown is of the inputs before the last change (a new page, filter or month), its
 * replacement not there yet.
 */
export type Load<T> = Loaded<T> & {
  readonly reload: () => void
  readonly refreshing: boolean
  readonly stale: boolean
}

/**
 * Runs `load` when the component appears and whenever `deps` change (a new page, a new filter), aborting
 * the request of the load it replaces. While another load runs the last data stays shown (`refreshing`),
 * so nothing the person is using is taken from under them; after a change of `deps` it is marked `stale`
 * until the new data is there (`Loaded` then says it is being updated).
 */
export const useLoad = <T>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: ReadonlyArray<unknown>
): Load<T> => {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: "loading" })
  const [refreshing, setRefreshing] = useState(false)
  const [stale, setStale] = useState(false)
  const [round, setRound] = useState(0)
  const lastRound = useRef<number | undefined>(undefined)
  useEffect(() => {
    const controller = new AbortController()
    setRefreshing(true)
    // the same round again: `deps` changed (not a reload), so what is shown is of other inputs
    if (lastRound.current === round) setStale(true)
    lastRound.current = round
    load(controller.signal).then(
      (data) => {
        if (controller.signal.aborted) return
        setLoaded({ state: "ready", data })
        setRefreshing(false)
        setStale(false)
      },
      (error: unknown) => {
        if (controller.signal.aborted) return
        setLoaded({ state: "failed", error: error instanceof Error ? error : new Error(String(error)) })
        setRefreshing(false)
        setStale(false)
      }
    )
    return () => controller.abort()
    // eslint-style exhaustiveness is the caller's: `deps` name what the load reads
  }, [...deps, round])
  return { ...loaded, refreshing, stale, reload: () => setRound((n) => n + 1) }
}
