import { useState } from "preact/hooks"
import type { Schema } from "../../api/Client.js"
import { CopyButton } from "../../components/CopyButton.js"
import { ErrorNotice } from "../../components/Feedback.js"
import { useAction } from "../../data/useAction.js"
import { useFocusWhen } from "../../data/useFocusWhen.js"
import { api } from "../../session/Session.js"

/** The API's bound on a key's name. */
const maxNameChars = 100

/**
 * Makes a key with a name, then shows it once (the only answer that carries it) with a button to copy
 * it, saying plainly that it will not be shown again.
 */
export const CreateApiKey = ({ onCreated }: { readonly onCreated: () => void }) => {
  const [name, setName] = useState("")
  const [created, setCreated] = useState<Schema<"CreatedApiKey"> | undefined>(undefined)
  const create = useAction()
  // the new key takes the focus (read out at once); hidden, the focus goes back to the name field
  const secret = useFocusWhen<HTMLDivElement>(created !== undefined)
  const nameField = useFocusWhen<HTMLInputElement>(created === undefined)
  const submit = (event: Event) => {
    event.preventDefault()
    if (name.trim() === "")
      return create.run(() => Promise.reject(new Error("Give the key a name, e.g. CRM integration.")))
    return create.run(async () => {
      const key = await api.post("/api/v1/api-keys", { body: { name: name.trim() } })
      setCreated(key)
      setName("")
      onCreated()
    })
  }
  return (
    <section aria-labelledby="create-key-heading">
      <h2 id="create-key-heading">Create a key</h2>
      {created === undefined ? null : (
        <div class="secret-once" role="region" aria-label="The new key" tabIndex={-1} ref={secret}>
          <p class="strong">The key {created.name} is made and usable now:</p>
          <p class="secret-value">
            <code>{created.api_key}</code>
          </p>
          <CopyButton text={created.api_key} label="Copy the key" />
          <p>
            Store it now: <span class="strong">you will not see it again</span>. Only its first characters (
            <code>{created.prefix}</code>) are kept where it can be read; if it is lost, make another and
            revoke this one.
          </p>
          <button type="button" class="secondary small" onClick={() => setCreated(undefined)}>
            I have stored it: hide the key
          </button>
        </div>
      )}
      <form onSubmit={submit} class="stacked">
        <label for="key-name">Key name</label>
        <input
          ref={nameField}
          id="key-name"
          value={name}
          maxLength={maxNameChars}
          aria-describedby="key-name-hint"
          onInput={(event) => setName(event.currentTarget.value)}
        />
        <p id="key-name-hint" class="hint">
          What uses it, so you can tell the keys apart later (e.g. CRM integration).
        </p>
        {create.error === undefined ? null : <ErrorNotice error={create.error} />}
        <div class="actions">
          <button type="submit" disabled={create.busy}>
            {create.busy ? "Creating…" : "Create a key"}
          </button>
        </div>
      </form>
    </section>
  )
}
