import { useRef } from "preact/hooks"
import type { Schema } from "../../api/Client.js"
import { ApiError } from "../../api/ApiErrors.js"
import { ErrorNotice, Loaded, LoadingNotice } from "../../components/Feedback.js"
import { useLoad } from "../../data/useLoad.js"
import { api } from "../../session/Session.js"
import { liveStatuses } from "./RunFilters.js"
import { useRecording } from "./RunRecording.js"
import { formatOffset, turnOffsets } from "./RunTimes.js"

type Turn = Schema<"RunTranscript">["turns"][number]

/** A transcript, or why there is none (a 404: in progress, none kept, or deleted by a retention policy). */
type Transcript =
  | { readonly available: true; readonly turns: ReadonlyArray<Turn> }
  | { readonly available: false; readonly reason: string }

/**
 * The conversation of a run: its transcript's turns beside the player of its recording. A click on a turn
 * plays the recording from where the turn starts. While the run is live neither is saved yet: that is said,
 * not shown as an error. A chat has a transcript and no recording.
 */
export const RunConversation = ({
  agentId,
  run
}: {
  readonly agentId: string
  readonly run: Schema<"Run">
}) => {
  const live = liveStatuses.includes(run.status)
  const hasRecording = run.mode !== "chat" && !live
  const player = useRef<HTMLAudioElement>(null)
  const recording = useRecording(agentId, run.workflow_run_id, hasRecording)
  const transcript = useLoad(
    async (signal): Promise<Transcript> => {
      if (live) return { available: false, reason: "" }
      try {
        const answer = await api.get("/api/v1/agents/{agent_id}/conversations/{run_id}/transcript", {
          path: { agent_id: agentId, run_id: run.workflow_run_id },
          signal
        })
        return { available: true, turns: answer.turns }
      } catch (error) {
        if (error instanceof ApiError && error.status === 404)
          return { available: false, reason: error.message }
        throw error
      }
    },
    [agentId, run.workflow_run_id, live]
  )
  const playFrom = (seconds: number) => {
    const audio = player.current
    if (audio === null) return
    audio.currentTime = seconds
    // a browser may refuse to play (no audio device, a policy): the player is still at the turn
    audio.play().catch(() => undefined)
  }
  return (
    <section aria-labelledby="conversation-heading" class="run-conversation">
      <h2 id="conversation-heading">Conversation</h2>
      {live ? (
        <p class="empty">
          The transcript and the recording are not available yet: they are saved when the{" "}
          {run.mode === "chat" ? "chat" : "call"} ends.
        </p>
      ) : (
        <div class="conversation-layout">
          <div class="conversation-player">
            <h3>Recording</h3>
            {!hasRecording ? (
              <p class="empty">A chat has no recording.</p>
            ) : recording.state === "loading" ? (
              <LoadingNotice label="Loading the recording…" />
            ) : recording.state === "failed" ? (
              <ErrorNotice error={recording.error} />
            ) : recording.state === "unavailable" ? (
              <p class="empty">The recording is not available: {recording.reason}</p>
            ) : (
              <>
                <audio
                  ref={player}
                  controls
                  preload="auto"
                  src={recording.url}
                  aria-label="Recording of the call"
                >
                  Your browser cannot play the recording.
                </audio>
                <p class="hint">Choose a turn of the transcript to hear it.</p>
              </>
            )}
          </div>
          <div class="conversation-transcript">
            <h3>Transcript</h3>
            <Loaded load={transcript} label="Loading the transcript…">
              {(data) =>
                !data.available ? (
                  <p class="empty">The transcript is not available: {data.reason}</p>
                ) : data.turns.length === 0 ? (
                  <p class="empty">Nothing was said.</p>
                ) : (
                  <Turns
                    turns={data.turns}
                    {...(recording.state === "ready" ? { onChoose: playFrom } : {})}
                  />
                )
              }
            </Loaded>
          </div>
        </div>
      )}
    </section>
  )
}

/** The turns, each with who spoke and where it is in the recording; a button to play it when there is one. */
const Turns = ({
  turns,
  onChoose
}: {
  readonly turns: ReadonlyArray<Turn>
  readonly onChoose?: (seconds: number) => void
}) => {
  const offsets = turnOffsets(turns)
  return (
    <ol class="turns">
      {turns.map((turn, index) => {
        const at = offsets[index] ?? 0
        const who = turn.role === "assistant" ? "Agent" : "Caller"
        const body = (
          <>
            <span class="turn-who">
              {who} · {formatOffset(at)}
            </span>
            <span class="turn-text">{turn.text}</span>
          </>
        )
        return (
          <li key={index} class={`turn turn-${turn.role === "assistant" ? "agent" : "caller"}`}>
            {onChoose === undefined ? (
              <div class="turn-body">{body}</div>
            ) : (
              <button type="button" class="turn-body" data-start={at} onClick={() => onChoose(at)}>
                <span class="visually-hidden">Play from here: </span>
                {body}
              </button>
            )}
          </li>
        )
      })}
    </ol>
  )
}
