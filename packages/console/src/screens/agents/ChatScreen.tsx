import { useEffect, useRef, useState } from "preact/hooks"
import type { Schema } from "../../api/Client.js"
import { ErrorNotice, Loaded } from "../../components/Feedback.js"
import { PageHeading } from "../../components/PageHeading.js"
import { useAction } from "../../data/useAction.js"
import { useLoad } from "../../data/useLoad.js"
import { Link } from "../../routing/Link.js"
import type { ScreenProps } from "../../routing/Routes.js"
import { api } from "../../session/Session.js"
import { RunLink } from "../runs/RunLink.js"
import { agentPath } from "./AgentPaths.js"
import { applyEvent, type ChatEntry, type ChatLog, emptyLog, sent, streamClosed } from "./ChatLog.js"

/** The API's bound on one message. */
const maxMessageChars = 4000

/**
 * "Talk to this agent": a chat run (`mode: "chat"`) with the server's language model. The agent's replies
 * stream in as they are written (server-sent events); the tools it runs are noted; the agent or the End
 * button ends the chat, and the run is then linked.
 */
export const ChatScreen = ({ params }: ScreenProps) => {
  const agentId = params["agentId"]!
  const agent = useLoad(
    (signal) => api.get("/api/v1/agents/{agent_id}", { path: { agent_id: agentId }, signal }),
    []
  )
  return (
    <Loaded load={agent}>
      {(data) => (
        <>
          <PageHeading title={`Talk to ${data.name}`}>
            <Link to={agentPath(data.public_id)} class="button secondary">
              Back to the agent
            </Link>
          </PageHeading>
          <Chat agent={data} />
        </>
      )}
    </Loaded>
  )
}

const Chat = ({ agent }: { readonly agent: Schema<"Agent"> }) => {
  const [run, setRun] = useState<Schema<"Run"> | undefined>(undefined)
  const [log, showLog] = useState<ChatLog>(emptyLog)
  // the log as it is now, for the stream's callbacks (a closure's `log` is the one of its render)
  const current = useRef<ChatLog>(emptyLog)
  const setLog = (next: ChatLog) => {
    current.current = next
    showLog(next)
  }
  const [message, setMessage] = useState("")
  const action = useAction()
  const stream = useRef<AbortController | undefined>(undefined)
  const messageField = useRef<HTMLInputElement>(null)
  // a reply still streaming when the person leaves the screen is abandoned (the API then keeps nothing of it)
  useEffect(() => () => stream.current?.abort(), [])

  const reply = async (runId: number, text: string | undefined) => {
    const controller = new AbortController()
    stream.current = controller
    setLog(sent(current.current, text))
    try {
      await api.stream(
        "/api/v1/agents/{agent_id}/conversations/{run_id}/messages",
        {
          path: { agent_id: agent.public_id, run_id: runId },
          body: text === undefined ? {} : { text },
          signal: controller.signal
        },
        (event) => setLog(applyEvent(current.current, event))
      )
    } catch (error) {
      setLog({ ...current.current, writing: undefined })
      throw error
    } finally {
      setLog(streamClosed(current.current))
    }
  }

  const start = () =>
    action.run(async () => {
      setLog(emptyLog)
      const created = await api.post("/api/v1/agents/{agent_id}/conversations", {
        path: { agent_id: agent.public_id },
        body: { mode: "chat" }
      })
      setRun(created)
      await reply(created.workflow_run_id, undefined)
      messageField.current?.focus()
    })

  const send = (event: Event) => {
    event.preventDefault()
    const text = message.trim()
    if (run === undefined || text === "") return
    return action.run(async () => {
      setMessage("")
      await reply(run.workflow_run_id, text)
      messageField.current?.focus()
    })
  }

  const end = () =>
    action.run(async () => {
      if (run === undefined) return
      const ended = await api.post("/api/v1/agents/{agent_id}/conversations/{run_id}/end", {
        path: { agent_id: agent.public_id, run_id: run.workflow_run_id }
      })
      setRun(ended)
      setLog({ ...current.current, ended: true })
    })

  if (run === undefined)
    return (
      <div class="chat">
        <p>
          A chat is a conversation in text with this agent, using its current prompt, tools and knowledge. It
          is kept as a run, with its transcript and analysis, like a call.
        </p>
        {action.error === undefined ? null : <ErrorNotice error={action.error} />}
        <button type="button" onClick={start} disabled={action.busy}>
          {action.busy ? "Starting…" : "Start a chat"}
        </button>
      </div>
    )

  return (
    <div class="chat">
      <p class="muted">
        <RunLink runId={run.workflow_run_id} agentId={agent.public_id} /> ·{" "}
        {log.ended ? "ended" : "in progress"}
      </p>
      <div class="chat-log" role="log" aria-label="Conversation">
        <ol>
          {log.entries.map((entry, index) => (
            <ChatLine key={index} entry={entry} agentName={agent.name} />
          ))}
        </ol>
      </div>
      {log.writing === undefined ? null : (
        // the reply as it is written; announced once whole, when it joins the conversation above
        <div class="chat-line chat-assistant chat-writing" aria-hidden="true">
          <span class="chat-who">{agent.name}</span>
          <span class="chat-text">{log.writing === "" ? "…" : log.writing}</span>
        </div>
      )}
      {log.failure === undefined ? null : <ErrorNotice error={log.failure} />}
      {action.error === undefined ? null : <ErrorNotice error={action.error} />}
      {log.ended ? (
        <div class="chat-ended">
          <p role="status">The chat has ended.</p>
          <button type="button" onClick={start} disabled={action.busy}>
            Start a new chat
          </button>
        </div>
      ) : (
        <form class="chat-form" onSubmit={send}>
          <label for="chat-message">Your message</label>
          <div class="chat-compose">
            <input
              id="chat-message"
              ref={messageField}
              value={message}
              maxLength={maxMessageChars}
              autoComplete="off"
              onInput={(event) => setMessage(event.currentTarget.value)}
            />
            <button type="submit" disabled={action.busy || message.trim() === ""}>
              Send
            </button>
            <button type="button" class="secondary" onClick={end} disabled={action.busy}>
              End the chat
            </button>
          </div>
        </form>
      )}
    </div>
  )
}

const ChatLine = ({ entry, agentName }: { readonly entry: ChatEntry; readonly agentName: string }) =>
  entry.kind === "tool" ? (
    <li class="chat-line chat-tool">
      <span class="chat-text">
        Ran the tool {entry.name}: {entry.ok ? "done" : `failed (${entry.error ?? "no reason given"})`}
      </span>
    </li>
  ) : (
    <li class={`chat-line chat-${entry.role}`}>
      <span class="chat-who">{entry.role === "user" ? "You" : agentName}</span>
      <span class="chat-text">{entry.text}</span>
    </li>
  )
