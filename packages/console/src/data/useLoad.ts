import { useEffect, useState } from "preact/hooks"

/** What a load has come to: still loading, its data, or why it failed. */
export type Loaded<T> =
  | { readonly state: "loading" }
  | { readonly state: "ready"; readonly data: T }
  | { readonly state: "failed"; readonly error: Error }

/** A load and the means to run it again (after a change the screen made). */
export type Load<T> = Loaded<T> & { readonly reload: () => void; readonly refreshing: boolean }

/**
 * Runs `load` when the component appears and whenever `deps` change (a new page, a new filter), aborting
 * the request of the load it replaces. While a reload runs the last data stays shown (`refreshing`).
 */
export const useLoad = <T>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: ReadonlyArray<unknown>
): Load<T> => {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: "loading" })
  const [refreshing, setRefreshing] = useState(false)
  const [round, setRound] = useState(0)
  useEffect(() => {
    const controller = new AbortController()
    setRefreshing(true)
    load(controller.signal).then(
      (data) => {
        if (controller.signal.aborted) return
        setLoaded({ state: "ready", data })
        setRefreshing(false)
      },
      (error: unknown) => {
        if (controller.signal.aborted) return
        setLoaded({ state: "failed", error: error instanceof Error ? error : new Error(String(error)) })
        setRefreshing(false)
      }
    )
    return () => controller.abort()
    // eslint-style exhaustiveness is the caller's: `deps` name what the load reads
  }, [...deps, round])
  return { ...loaded, refreshing, reload: () => setRound((n) => n + 1) }
}
