import { useState } from "preact/hooks"
import type { Schema } from "../../api/Client.js"
import { CopyButton } from "../../components/CopyButton.js"
import { ErrorNotice } from "../../components/Feedback.js"
import { useAction } from "../../data/useAction.js"
import { useFocusWhen } from "../../data/useFocusWhen.js"
import { api } from "../../session/Session.js"
import { chosenEvents, type WebhookEvent, webhookEvents } from "./WebhookEvents.js"

/**
 * Registers an endpoint (its URL, the events it receives, a description), then shows its signing secret
 * once, with a button to copy it.
 */
export const CreateWebhook = ({ onCreated }: { readonly onCreated: () => void }) => {
  const [url, setUrl] = useState("")
  const [description, setDescription] = useState("")
  const [events, setEvents] = useState<ReadonlyArray<WebhookEvent>>(webhookEvents.map((event) => event.value))
  const [created, setCreated] = useState<Schema<"CreatedWebhookEndpoint"> | undefined>(undefined)
  // the signing secret takes the focus (read out at once); hidden, the focus goes back to the address field
  const secret = useFocusWhen<HTMLDivElement>(created !== undefined)
  const urlField = useFocusWhen<HTMLInputElement>(created === undefined)
  const create = useAction()
  const submit = (event: Event) => {
    event.preventDefault()
    return create.run(async () => {
      if (url.trim() === "") throw new Error("Give the URL that receives the events.")
      const chosen = chosenEvents(events)
      if (typeof chosen === "string") throw new Error(chosen)
      const endpoint = await api.post("/api/v1/webhooks", {
        body: {
          url: url.trim(),
          ...(chosen === undefined ? {} : { events: chosen }),
          ...(description.trim() === "" ? {} : { description: description.trim() })
        }
      })
      setCreated(endpoint)
      setUrl("")
      setDescription("")
      setEvents(webhookEvents.map((choice) => choice.value))
      onCreated()
    })
  }
  const toggle = (value: WebhookEvent, on: boolean) =>
    setEvents(on ? [...events, value] : events.filter((event) => event !== value))
  return (
    <section aria-labelledby="create-webhook-heading">
      <h2 id="create-webhook-heading">Add an endpoint</h2>
      {created === undefined ? null : (
        <div
          class="secret-once"
          role="region"
          aria-label="The new endpoint's signing secret"
          tabIndex={-1}
          ref={secret}
        >
          <p class="strong">Events now go to {created.url}. Its signing secret:</p>
          <p class="secret-value">
            <code>{created.secret}</code>
          </p>
          <CopyButton text={created.secret} label="Copy the secret" />
          <p>
            Your receiver checks each event's <code>webhook-signature</code> with it (Standard Webhooks).
            Store it now: <span class="strong">you will not see it again</span>.
          </p>
          <button type="button" class="secondary small" onClick={() => setCreated(undefined)}>
            I have stored it: hide the secret
          </button>
        </div>
      )}
      <form onSubmit={submit} class="stacked">
        <label for="webhook-url">URL</label>
        <input
          ref={urlField}
          id="webhook-url"
          type="url"
          value={url}
          maxLength={2048}
          aria-describedby="webhook-url-hint"
          onInput={(event) => setUrl(event.currentTarget.value)}
        />
        <p id="webhook-url-hint" class="hint">
          Each event is a signed JSON POST to it; an answer other than 2xx is retried, up to 5 attempts.
        </p>
        <fieldset class="event-choices">
          <legend>Events it receives</legend>
          {webhookEvents.map((event) => (
            <label class="check" key={event.value}>
              <input
                type="checkbox"
                checked={events.includes(event.value)}
                onChange={(change) => toggle(event.value, change.currentTarget.checked)}
              />{" "}
              {event.label}
            </label>
          ))}
        </fieldset>
        <label for="webhook-description">Description (optional)</label>
        <input
          id="webhook-description"
          value={description}
          onInput={(event) => setDescription(event.currentTarget.value)}
        />
        {create.error === undefined ? null : <ErrorNotice error={create.error} />}
        <div class="actions">
          <button type="submit" disabled={create.busy}>
            {create.busy ? "Adding…" : "Add the endpoint"}
          </button>
        </div>
      </form>
    </section>
  )
}
