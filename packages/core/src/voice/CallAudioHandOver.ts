import { Duration } from "effect"
import type { Run } from "../runs/Run.js"

/**
 * Who writes a real call's last words and recording before its run ends. The carrier's final status
 * callback ends the run (and frees its channel, once), but when the caller hangs up it can reach a server
 * before the call's voice loop — maybe on another server — has stored the recording and the last
 * transcript fragments, which an ended run refuses. So the loop marks the run, in its logs (storage, read
 * by every server), when its audio connects and once its recording and transcript are stored; a final
 * status callback for a run whose audio is connected and not yet handed over waits for the hand-over
 * (reading the run from storage) at most `handOverTimeout`, then ends the run either way: a loop whose
 * server died must not keep the call live.
 */

/** The run's log line written when a call's media socket is taken and its voice loop starts. */
export const connectedMessage = "The call's audio connected"

/** The run's log line written once the voice loop stored the call's recording and transcript. */
export const handedOverMessage = "The call's audio ended; its recording and transcript are stored"

/** The run's log line written when the carrier's end waits for the hand-over. */
export const waitingMessage = "The carrier reported the call's end; waiting for its recording and transcript"

/**
 * How long a final status callback waits for the voice loop's hand-over: within the carrier's webhook
 * timeout (Twilio's is 15 s) and past the speech-to-text session's own bounded finish (5 s).
 */
export const handOverTimeout = Duration.seconds(10)

/** How often the waiting callback reads the run again. */
export const pollInterval = Duration.millis(100)

/** Whether a voice loop is live on the run's audio: connected more often than handed over. */
export const awaitsHandOver = (run: Pick<Run, "logs">): boolean => {
  let open = 0
  for (const entry of run.logs) {
    if (entry.message === connectedMessage) open++
    else if (entry.message === handedOverMessage) open--
  }
  return open > 0
}
