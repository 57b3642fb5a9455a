import { useState } from "preact/hooks"
import { ErrorNotice } from "../../components/Feedback.js"
import { useAction } from "../../data/useAction.js"
import { useLoad } from "../../data/useLoad.js"
import { api } from "../../session/Session.js"
import {
  bodyOf,
  type EditableType,
  editableTypes,
  type HttpMethod,
  httpMethods,
  maxTimeoutMs,
  type ToolBody,
  type ToolDraft
} from "./ToolDraft.js"
import { ToolParameters } from "./ToolParameters.js"

/** A field: its label, the control, and a hint under it when given. */
const Field = ({
  id,
  label,
  hint,
  value,
  onInput,
  multiline = false,
  short = false
}: {
  readonly id: string
  readonly label: string
  readonly hint?: string
  readonly value: string
  readonly onInput: (value: string) => void
  readonly multiline?: boolean
  readonly short?: boolean
}) => (
  <>
    <label for={id}>{label}</label>
    {multiline ? (
      <textarea
        id={id}
        rows={3}
        value={value}
        aria-describedby={hint === undefined ? undefined : `${id}-hint`}
        onInput={(event) => onInput(event.currentTarget.value)}
      />
    ) : (
      <input
        id={id}
        class={short ? "short" : undefined}
        value={value}
        aria-describedby={hint === undefined ? undefined : `${id}-hint`}
        onInput={(event) => onInput(event.currentTarget.value)}
      />
    )}
    {hint === undefined ? null : (
      <p id={`${id}-hint`} class="hint">
        {hint}
      </p>
    )}
  </>
)

/**
 * A tool's form: its name and description, its kind, and the kind's settings (an HTTP API tool's request,
 * parameters and answer; a transfer's number and message; an end call's message). `submit` gets the API's
 * body; its failure (the API's reason) is shown under the form.
 */
export const ToolForm = ({
  initial,
  submitLabel,
  submit,
  onCancel,
  typeFixed = false
}: {
  readonly initial: ToolDraft
  readonly submitLabel: string
  readonly submit: (body: ToolBody) => Promise<void>
  readonly onCancel?: () => void
  /** Editing keeps the kind (a new kind is a new tool). */
  readonly typeFixed?: boolean
}) => {
  const [draft, setDraft] = useState(initial)
  const save = useAction()
  const credentials = useLoad(
    (signal) => api.get("/api/v1/credentials", { query: { limit: 100 }, signal }),
    []
  )
  const set = (patch: Partial<ToolDraft>) => setDraft({ ...draft, ...patch })
  const onSubmit = (event: Event) => {
    event.preventDefault()
    const body = bodyOf(draft)
    return save.run(() => (typeof body === "string" ? Promise.reject(new Error(body)) : submit(body)))
  }
  const known = credentials.state === "ready" ? credentials.data.items : []
  return (
    <form onSubmit={onSubmit} class="stacked">
      <Field id="tool-name" label="Name" value={draft.name} onInput={(name) => set({ name })} />
      <Field
        id="tool-description"
        label="Description (optional)"
        hint="What the tool does, in words the agent's model reads to decide when to use it."
        value={draft.description}
        onInput={(description) => set({ description })}
        multiline
      />
      <label for="tool-type">Kind</label>
      <select
        id="tool-type"
        value={draft.type}
        disabled={typeFixed}
        onChange={(event) => set({ type: event.currentTarget.value as EditableType })}
      >
        {editableTypes.map((type) => (
          <option key={type.value} value={type.value}>
            {type.label}
          </option>
        ))}
      </select>
      {draft.type === "http_api" ? (
        <>
          <label for="tool-method">Method</label>
          <select
            id="tool-method"
            value={draft.method}
            onChange={(event) => set({ method: event.currentTarget.value as HttpMethod })}
          >
            {httpMethods.map((method) => (
              <option key={method} value={method}>
                {method}
              </option>
            ))}
          </select>
          <Field
            id="tool-url"
            label="URL"
            hint="May hold {{name}} (a parameter) and {{initial_context.key}} placeholders. Arguments not in the URL go to the query (GET, DELETE) or a JSON body."
            value={draft.url}
            onInput={(url) => set({ url })}
          />
          <Field
            id="tool-headers"
            label="Headers (optional)"
            hint="One a line, as Name: value."
            value={draft.headers}
            onInput={(headers) => set({ headers })}
            multiline
          />
          <label for="tool-credential">Credential</label>
          <select
            id="tool-credential"
            value={draft.credentialUuid}
            onChange={(event) => set({ credentialUuid: event.currentTarget.value })}
          >
            <option value="">None</option>
            {known.map((credential) => (
              <option key={credential.credential_uuid} value={credential.credential_uuid}>
                {credential.name} ({credential.kind})
              </option>
            ))}
            {draft.credentialUuid !== "" &&
            !known.some((credential) => credential.credential_uuid === draft.credentialUuid) ? (
              <option value={draft.credentialUuid}>{draft.credentialUuid}</option>
            ) : null}
          </select>
          <ToolParameters rows={draft.parameters} onChange={(parameters) => set({ parameters })} />
          <Field
            id="tool-timeout"
            label="Timeout in milliseconds (optional)"
            hint={`5000 when empty; at most ${maxTimeoutMs}.`}
            value={draft.timeoutMs}
            onInput={(timeoutMs) => set({ timeoutMs })}
            short
          />
          <Field
            id="tool-response-fields"
            label="Response fields (optional)"
            hint="The answer's values the agent gets, one path a line (items.0.name); the whole JSON answer when empty."
            value={draft.responseFields}
            onInput={(responseFields) => set({ responseFields })}
            multiline
          />
          <Field
            id="tool-wait-message"
            label="Said while waiting (optional)"
            value={draft.waitMessage}
            onInput={(waitMessage) => set({ waitMessage })}
          />
          <Field
            id="tool-error-message"
            label="Said when the call fails (optional)"
            value={draft.errorMessage}
            onInput={(errorMessage) => set({ errorMessage })}
          />
          <Field
            id="tool-trigger-phrases"
            label="Trigger phrases (optional)"
            hint="One a line: when the caller says one, the tool is called at once."
            value={draft.triggerPhrases}
            onInput={(triggerPhrases) => set({ triggerPhrases })}
            multiline
          />
        </>
      ) : draft.type === "transfer" ? (
        <>
          <Field
            id="tool-destination"
            label="Number to transfer to (optional)"
            hint="In international form (+48…); without it, one of the agent's transfer numbers."
            value={draft.destinationNumber}
            onInput={(destinationNumber) => set({ destinationNumber })}
          />
          <Field
            id="tool-transfer-message"
            label="Said before transferring (optional)"
            value={draft.transferMessage}
            onInput={(transferMessage) => set({ transferMessage })}
          />
          <ToolParameters rows={draft.parameters} onChange={(parameters) => set({ parameters })} />
        </>
      ) : (
        <>
          <label for="tool-end-message-type">Before hanging up</label>
          <select
            id="tool-end-message-type"
            value={draft.endMessageType}
            onChange={(event) => set({ endMessageType: event.currentTarget.value as "none" | "custom" })}
          >
            <option value="none">Say nothing more</option>
            <option value="custom">Say a message</option>
          </select>
          {draft.endMessageType === "custom" ? (
            <Field
              id="tool-custom-message"
              label="Message"
              value={draft.customMessage}
              onInput={(customMessage) => set({ customMessage })}
            />
          ) : null}
        </>
      )}
      {save.error === undefined ? null : <ErrorNotice error={save.error} />}
      <div class="actions">
        <button type="submit" disabled={save.busy}>
          {save.busy ? "Saving…" : submitLabel}
        </button>
        {onCancel === undefined ? null : (
          <button type="button" class="secondary" onClick={onCancel} disabled={save.busy}>
            Cancel
          </button>
        )}
      </div>
    </form>
  )
}
