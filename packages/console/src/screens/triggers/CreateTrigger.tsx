import { useState } from "preact/hooks"
import type { Schema } from "../../api/Client.js"
import { ErrorNotice } from "../../components/Feedback.js"
import { useAction } from "../../data/useAction.js"
import { Link } from "../../routing/Link.js"
import { api } from "../../session/Session.js"
import { contextFrom } from "./TriggerContext.js"

/** The form that creates a trigger: its name, its agent and the context its calls start from. */
export const CreateTrigger = ({
  agents,
  onCreated
}: {
  readonly agents: ReadonlyArray<Schema<"Agent">>
  readonly onCreated: (trigger: Schema<"Trigger">) => void
}) => {
  const [name, setName] = useState("")
  const [agentId, setAgentId] = useState("")
  const [context, setContext] = useState("")
  const action = useAction()
  if (agents.length === 0)
    return (
      <p class="empty">
        A trigger calls with an agent: <Link to="agents/new">create an agent</Link> first.
      </p>
    )
  const create = (event: Event) => {
    event.preventDefault()
    return action.run(async () => {
      if (name.trim() === "") throw new Error("Give the trigger a name.")
      const parsed = contextFrom(context)
      if ("error" in parsed) throw new Error(parsed.error)
      const trigger = await api.post("/api/v1/triggers", {
        body: {
          name: name.trim(),
          agent_id: agentId === "" ? agents[0]!.public_id : agentId,
          ...(parsed.context === undefined ? {} : { initial_context: parsed.context })
        }
      })
      setName("")
      setContext("")
      onCreated(trigger)
    })
  }
  return (
    <form class="stacked" onSubmit={create} aria-labelledby="create-trigger-heading">
      <h2 id="create-trigger-heading">Create a trigger</h2>
      <label for="trigger-name">Name</label>
      <input id="trigger-name" value={name} onInput={(event) => setName(event.currentTarget.value)} />
      <label for="trigger-agent">Agent</label>
      <select id="trigger-agent" value={agentId} onChange={(event) => setAgentId(event.currentTarget.value)}>
        {agents.map((agent) => (
          <option key={agent.public_id} value={agent.public_id}>
            {agent.name}
          </option>
        ))}
      </select>
      <label for="trigger-context">Context (optional JSON)</label>
      <textarea
        id="trigger-context"
        rows={3}
        value={context}
        aria-describedby="trigger-context-hint"
        onInput={(event) => setContext(event.currentTarget.value)}
      />
      <p id="trigger-context-hint" class="hint">
        What every call through the trigger starts from, e.g. <code>{'{"source": "crm"}'}</code>; a call's own
        keys win.
      </p>
      {action.error === undefined ? null : <ErrorNotice error={action.error} />}
      <div class="actions">
        <button type="submit" disabled={action.busy}>
          {action.busy ? "Creating…" : "Create the trigger"}
        </button>
      </div>
    </form>
  )
}
