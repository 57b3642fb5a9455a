import { useState } from "preact/hooks"
import { ErrorNotice } from "../components/Feedback.js"
import { PageHeading } from "../components/PageHeading.js"
import { requestFocus } from "../routing/Location.js"
import { signedOutReason, signIn } from "./Session.js"

/** The sign-in form: the organization's API key, checked against the API before it is kept. */
export const SignIn = () => {
  const [key, setKey] = useState("")
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>(undefined)
  const submit = async (event: Event) => {
    event.preventDefault()
    if (key.trim() === "") {
      setError("Enter the organization's API key.")
      return
    }
    setBusy(true)
    setError(undefined)
    try {
      await signIn(key)
      requestFocus()
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure))
      setBusy(false)
    }
  }
  const reason = error ?? signedOutReason.value
  return (
    <main id="main" class="sign-in">
      <PageHeading title="Sign in" />
      <p>The console of the Voice Agent Platform: your organization's agents, calls and campaigns.</p>
      <form onSubmit={submit} noValidate>
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autoComplete="off"
          spellcheck={false}
          aria-describedby="api-key-hint"
          aria-invalid={error === undefined ? undefined : true}
          value={key}
          onInput={(event) => setKey(event.currentTarget.value)}
        />
        <p id="api-key-hint" class="hint">
          The organization's key (<code>vap_…</code>). It is kept in this browser tab only, until you sign out
          or close the tab.
        </p>
        {reason === undefined ? null : <ErrorNotice error={reason} />}
        <button type="submit" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
    </main>
  )
}
