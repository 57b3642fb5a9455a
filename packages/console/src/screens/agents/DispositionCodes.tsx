import { useState } from "preact/hooks"
import type { Schema } from "../../api/Client.js"
import { ErrorNotice } from "../../components/Feedback.js"
import { useAction } from "../../data/useAction.js"
import { api } from "../../session/Session.js"
import { textOf } from "../../text/Formats.js"

/** The API's bounds on disposition codes (a longer one is refused; the fields stop there first). */
const maxCodes = 50
const maxCodeChars = 100
const maxDescriptionChars = 1000

interface Row {
  readonly key: number
  readonly code: string
  readonly description: string
}

/**
 * The codes the analysis after each run chooses the run's disposition from, each with what it means; edited
 * as rows and saved whole (`PATCH … call_disposition_codes` replaces them).
 */
export const DispositionCodes = ({
  agent,
  onSaved
}: {
  readonly agent: Schema<"Agent">
  readonly onSaved: () => void
}) => {
  const [editing, setEditing] = useState(false)
  const codes = Object.entries(agent.call_disposition_codes)
  return (
    <section aria-labelledby="dispositions-heading">
      <div class="section-heading">
        <h2 id="dispositions-heading">Disposition codes</h2>
        {editing ? null : (
          <button type="button" class="secondary small" onClick={() => setEditing(true)}>
            Edit the codes
          </button>
        )}
      </div>
      {editing ? (
        <CodesEditor
          agent={agent}
          onDone={(saved) => {
            setEditing(false)
            if (saved) onSaved()
          }}
        />
      ) : codes.length === 0 ? (
        <p class="empty">No disposition codes: the analysis leaves the runs' disposition empty.</p>
      ) : (
        <dl class="codes">
          {codes.map(([code, description]) => (
            <div key={code}>
              <dt>
                <code>{code}</code>
              </dt>
              <dd>{textOf(description)}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  )
}

const CodesEditor = ({
  agent,
  onDone
}: {
  readonly agent: Schema<"Agent">
  readonly onDone: (saved: boolean) => void
}) => {
  const [rows, setRows] = useState<ReadonlyArray<Row>>(() =>
    Object.entries(agent.call_disposition_codes).map(([code, description], key) => ({
      key,
      code,
      description: typeof description === "string" ? description : textOf(description)
    }))
  )
  const [nextKey, setNextKey] = useState(rows.length)
  const save = useAction()
  const change = (key: number, patch: Partial<Row>) =>
    setRows(rows.map((row) => (row.key === key ? { ...row, ...patch } : row)))
  const add = () => {
    setRows([...rows, { key: nextKey, code: "", description: "" }])
    setNextKey(nextKey + 1)
  }
  const submit = (event: Event) => {
    event.preventDefault()
    const kept = rows.filter((row) => row.code.trim() !== "")
    const codes = kept.map((row) => row.code.trim())
    const repeated = codes.find((code, index) => codes.indexOf(code) !== index)
    if (repeated !== undefined)
      return save.run(() => Promise.reject(new Error(`The code ${repeated} is given twice.`)))
    const body = {
      call_disposition_codes: Object.fromEntries(kept.map((row) => [row.code.trim(), row.description]))
    }
    return save.run(async () => {
      await api.patch("/api/v1/agents/{agent_id}", { path: { agent_id: agent.public_id }, body })
      onDone(true)
    })
  }
  return (
    <form onSubmit={submit} class="stacked">
      <fieldset>
        <legend>Codes and what each means</legend>
        {rows.length === 0 ? <p class="empty">No codes. Add one below.</p> : null}
        {rows.map((row, index) => (
          <div class="code-row" key={row.key}>
            <div class="field">
              <label for={`code-${row.key}`}>Code {index + 1}</label>
              <input
                id={`code-${row.key}`}
                value={row.code}
                maxLength={maxCodeChars}
                onInput={(event) => change(row.key, { code: event.currentTarget.value })}
              />
            </div>
            <div class="field grow">
              <label for={`code-description-${row.key}`}>Meaning of code {index + 1}</label>
              <input
                id={`code-description-${row.key}`}
                value={row.description}
                maxLength={maxDescriptionChars}
                onInput={(event) => change(row.key, { description: event.currentTarget.value })}
              />
            </div>
            <button
              type="button"
              class="secondary small"
              onClick={() => setRows(rows.filter((other) => other.key !== row.key))}
            >
              Remove code {index + 1}
            </button>
          </div>
        ))}
        {rows.length < maxCodes ? (
          <button type="button" class="secondary small" onClick={add}>
            Add a code
          </button>
        ) : null}
      </fieldset>
      {save.error === undefined ? null : <ErrorNotice error={save.error} />}
      <div class="actions">
        <button type="submit" disabled={save.busy}>
          {save.busy ? "Saving…" : "Save the codes"}
        </button>
        <button type="button" class="secondary" onClick={() => onDone(false)} disabled={save.busy}>
          Cancel
        </button>
      </div>
    </form>
  )
}
