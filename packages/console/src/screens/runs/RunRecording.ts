import { useEffect, useState } from "preact/hooks"
import { ApiError } from "../../api/ApiErrors.js"
import { apiRoot } from "../../Mount.js"
import { api } from "../../session/Session.js"
import { onThisOrigin } from "./RunTimes.js"

/** A run's recording as the page has it: on its way, a `blob:` address to play, not there, or failed. */
export type Recording =
  | { readonly state: "loading" }
  | { readonly state: "ready"; readonly url: string }
  | { readonly state: "unavailable"; readonly reason: string }
  | { readonly state: "failed"; readonly error: string }

/**
 * The recording's bytes in this page, as a `blob:` address for the `<audio>` element. The API answers a
 * signed, expiring link (`GET …/recording`); the bytes are fetched from it on this origin with the key, and
 * played from memory: an `<audio>` element cannot send the key, and the download answers no byte ranges,
 * so a player pointed at the link itself could not be moved to a turn's time. A 404 (the call is in
 * progress, had no recording, or a retention policy deleted it) is "unavailable" with the API's reason.
 * The address is released when the page leaves the run.
 */
export const useRecording = (agentId: string, runId: number, enabled: boolean): Recording => {
  const [recording, setRecording] = useState<Recording>({ state: "loading" })
  useEffect(() => {
    if (!enabled) return
    const controller = new AbortController()
    let url: string | undefined
    const signal = controller.signal
    setRecording({ state: "loading" })
    const load = async () => {
      const link = await api.get("/api/v1/agents/{agent_id}/conversations/{run_id}/recording", {
        path: { agent_id: agentId, run_id: runId },
        query: { expires_in: 300 },
        signal
      })
      const address = onThisOrigin(link.download_url, apiRoot)
      if (address === undefined) throw new Error("The API answered a recording link the console cannot read.")
      const bytes = await api.blob(address, { accept: link.content_type, signal })
      if (signal.aborted) return
      url = URL.createObjectURL(bytes.type === "" ? new Blob([bytes], { type: link.content_type }) : bytes)
      setRecording({ state: "ready", url })
    }
    load().catch((error: unknown) => {
      if (signal.aborted) return
      if (error instanceof ApiError && error.status === 404)
        setRecording({ state: "unavailable", reason: error.message })
      else setRecording({ state: "failed", error: error instanceof Error ? error.message : String(error) })
    })
    return () => {
      controller.abort()
      if (url !== undefined) URL.revokeObjectURL(url)
    }
  }, [agentId, runId, enabled])
  return recording
}
