import { useState } from "preact/hooks"
import type { Schema } from "../../api/Client.js"
import { ErrorNotice } from "../../components/Feedback.js"
import { useAction } from "../../data/useAction.js"
import { api } from "../../session/Session.js"

/**
 * The agent's system prompt and first message, and their editing: a save is a `PATCH` of what changed,
 * which makes a new definition version.
 */
export const AgentPrompt = ({
  agent,
  onSaved
}: {
  readonly agent: Schema<"Agent">
  readonly onSaved: () => void
}) => {
  const [editing, setEditing] = useState(false)
  const definition = agent.workflow_definition
  return (
    <section aria-labelledby="prompt-heading">
      <div class="section-heading">
        <h2 id="prompt-heading">Prompt and first message</h2>
        {editing ? null : (
          <button type="button" class="secondary small" onClick={() => setEditing(true)}>
            Edit the prompt
          </button>
        )}
      </div>
      {editing ? (
        <PromptEditor
          agent={agent}
          onDone={(saved) => {
            setEditing(false)
            if (saved) onSaved()
          }}
        />
      ) : (
        <>
          <h3>First message</h3>
          <p class="prose">{definition.first_message === "" ? "—" : definition.first_message}</p>
          <h3>System prompt</h3>
          <div class="prose prompt" tabIndex={0} role="region" aria-label="System prompt">
            {definition.system_prompt === "" ? "—" : definition.system_prompt}
          </div>
        </>
      )}
    </section>
  )
}

const PromptEditor = ({
  agent,
  onDone
}: {
  readonly agent: Schema<"Agent">
  readonly onDone: (saved: boolean) => void
}) => {
  const definition = agent.workflow_definition
  const [prompt, setPrompt] = useState(definition.system_prompt)
  const [firstMessage, setFirstMessage] = useState(definition.first_message)
  const save = useAction()
  const submit = (event: Event) => {
    event.preventDefault()
    const body = {
      ...(prompt === definition.system_prompt ? {} : { system_prompt: prompt }),
      ...(firstMessage === definition.first_message ? {} : { first_message: firstMessage })
    }
    if (Object.keys(body).length === 0) return onDone(false)
    return save.run(async () => {
      await api.patch("/api/v1/agents/{agent_id}", { path: { agent_id: agent.public_id }, body })
      onDone(true)
    })
  }
  return (
    <form class="stacked" onSubmit={submit}>
      <label for="first-message">First message</label>
      <textarea
        id="first-message"
        rows={3}
        maxLength={5000}
        value={firstMessage}
        onInput={(event) => setFirstMessage(event.currentTarget.value)}
      />
      <label for="system-prompt">System prompt</label>
      <textarea
        id="system-prompt"
        rows={16}
        maxLength={100000}
        value={prompt}
        aria-describedby="system-prompt-hint"
        onInput={(event) => setPrompt(event.currentTarget.value)}
      />
      <p id="system-prompt-hint" class="hint">
        Saving makes a new version of the agent; calls and chats started after it use it.
      </p>
      {save.error === undefined ? null : <ErrorNotice error={save.error} />}
      <div class="actions">
        <button type="submit" disabled={save.busy}>
          {save.busy ? "Saving…" : "Save a new version"}
        </button>
        <button type="button" class="secondary" onClick={() => onDone(false)} disabled={save.busy}>
          Cancel
        </button>
      </div>
    </form>
  )
}
