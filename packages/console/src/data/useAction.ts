import { useState } from "preact/hooks"

/** An action a person started (a save, a create): whether it runs, and why it failed. */
export interface Action {
  readonly busy: boolean
  readonly error: string | undefined
  /** Runs `work` (one at a time): busy while it runs, its failure's message kept for the form to show. */
  readonly run: (work: () => Promise<void>) => Promise<void>
  /** Forgets the last failure. */
  readonly clear: () => void
}

/** The state of one action of a form or a button. */
export const useAction = (): Action => {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>(undefined)
  return {
    busy,
    error,
    clear: () => setError(undefined),
    run: async (work) => {
      if (busy) return
      setBusy(true)
      setError(undefined)
      try {
        await work()
      } catch (failure) {
        setError(failure instanceof Error ? failure.message : String(failure))
      } finally {
        setBusy(false)
      }
    }
  }
}
