import { useState } from "preact/hooks"
import type { Schema } from "../../api/Client.js"
import { ErrorNotice } from "../../components/Feedback.js"
import { PageHeading } from "../../components/PageHeading.js"
import { navigate } from "../../routing/Location.js"
import { api } from "../../session/Session.js"
import { agentPath } from "./AgentPaths.js"
import { ScriptPreview } from "./ScriptPreview.js"

/**
 * An agent from a call script: the script pasted, its analysis shown (greeting, steps, data fields, FAQ),
 * then the agent created from that analysis, named as the person chooses.
 */
export const CreateAgentScreen = () => {
  const [script, setScript] = useState("")
  const [language, setLanguage] = useState("")
  const [name, setName] = useState("")
  const [preview, setPreview] = useState<Schema<"CallScriptPreview"> | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>(undefined)

  const run = async (work: () => Promise<void>) => {
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

  const analyze = (event: Event) => {
    event.preventDefault()
    if (script.trim() === "") return setError("Paste the call script first.")
    return run(async () => {
      const answer = await api.post("/api/v1/agent-templates/analyze-script", {
        body: language.trim() === "" ? { script } : { script, language: language.trim() }
      })
      setPreview(answer)
      setName(answer.agent_name ?? "")
    })
  }

  const create = (event: Event) => {
    event.preventDefault()
    if (preview === undefined) return
    return run(async () => {
      const { agent_name: _, ...rest } = preview
      const agent = await api.post("/api/v1/agents/from-script", {
        body: name.trim() === "" ? rest : { ...rest, agent_name: name.trim() }
      })
      navigate(agentPath(agent.public_id))
    })
  }

  return (
    <>
      <PageHeading title="Create an agent from a script" />
      <form onSubmit={analyze} class="stacked">
        <label for="script">Call script</label>
        <textarea
          id="script"
          rows={14}
          value={script}
          aria-describedby="script-hint"
          onInput={(event) => {
            setScript(event.currentTarget.value)
            setPreview(undefined)
          }}
        />
        <p id="script-hint" class="hint">
          Paste the script as your callers read it: the greeting, the steps, the questions to ask and their
          answers. It is analysed first; nothing is created until you confirm.
        </p>
        <label for="language">Language (optional)</label>
        <input
          id="language"
          class="short"
          value={language}
          aria-describedby="language-hint"
          onInput={(event) => setLanguage(event.currentTarget.value)}
        />
        <p id="language-hint" class="hint">
          A language tag such as <code>en</code> or <code>pl</code>; read from the script when left empty.
        </p>
        {preview === undefined && error !== undefined ? <ErrorNotice error={error} /> : null}
        <div class="actions">
          <button type="submit" disabled={busy}>
            {busy && preview === undefined ? "Analysing…" : "Analyse the script"}
          </button>
        </div>
      </form>
      {preview === undefined ? null : (
        <section aria-labelledby="preview-heading" class="panel">
          <h2 id="preview-heading">What the script says</h2>
          <ScriptPreview preview={preview} />
          <form onSubmit={create} class="stacked">
            <label for="agent-name">Agent name</label>
            <input id="agent-name" value={name} onInput={(event) => setName(event.currentTarget.value)} />
            {error === undefined ? null : <ErrorNotice error={error} />}
            <div class="actions">
              <button type="submit" disabled={busy}>
                {busy ? "Creating…" : "Create the agent"}
              </button>
            </div>
          </form>
        </section>
      )}
    </>
  )
}
