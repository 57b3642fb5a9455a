import { useState } from "preact/hooks"
import type { Schema } from "../../api/Client.js"
import { DataTable } from "../../components/DataTable.js"
import { ErrorNotice, Loaded } from "../../components/Feedback.js"
import { useAction } from "../../data/useAction.js"
import { useLoad } from "../../data/useLoad.js"
import { api } from "../../session/Session.js"
import { formatDateTime } from "../../text/Formats.js"

/** The newest requests listed. */
const requestsShown = 20

/**
 * Demand for a Polish number when none is left to order: the end user it is for (the organization's own
 * identifier), the type, a note and the end user's consent; the requests made so far, newest first.
 */
export const NumberRequests = () => {
  const requests = useLoad(
    (signal) => api.get("/api/v1/phone-numbers/polish/requests", { query: { limit: requestsShown }, signal }),
    []
  )
  const [endUser, setEndUser] = useState("")
  const [numberType, setNumberType] = useState("")
  const [note, setNote] = useState("")
  const [consent, setConsent] = useState(false)
  const [said, setSaid] = useState("")
  const action = useAction()

  const submit = (event: Event) => {
    event.preventDefault()
    setSaid("")
    return action.run(async () => {
      if (!/^\d{1,15}$/.test(endUser.trim())) throw new Error("The end user's id must be a whole number.")
      if (!consent) throw new Error("A number is requested only with the end user's consent: tick the box.")
      const created = await api.post("/api/v1/phone-numbers/polish/request", {
        body: {
          end_user_id: Number(endUser.trim()),
          consent: true,
          note,
          ...(numberType === "mobile" || numberType === "landline" ? { number_type: numberType } : {})
        }
      })
      setSaid(`Request ${created.id} is registered: the number is ordered from an operator.`)
      setEndUser("")
      setNote("")
      setConsent(false)
      requests.reload()
    })
  }

  return (
    <section aria-labelledby="request-heading" class="panel">
      <h2 id="request-heading">Request a Polish number</h2>
      <p class="muted">When no number of the type is left to order, register the demand here.</p>
      <form class="stacked" onSubmit={submit}>
        <label for="request-end-user">End user id</label>
        <input
          id="request-end-user"
          class="short"
          inputMode="numeric"
          value={endUser}
          aria-describedby="request-end-user-hint"
          onInput={(event) => setEndUser(event.currentTarget.value)}
        />
        <p id="request-end-user-hint" class="hint">
          Your own identifier of the end user the number is for.
        </p>
        <label for="request-type">Number type</label>
        <select
          id="request-type"
          value={numberType}
          onChange={(event) => setNumberType(event.currentTarget.value)}
        >
          <option value="">Any</option>
          <option value="mobile">Mobile</option>
          <option value="landline">Landline</option>
        </select>
        <label for="request-note">Note</label>
        <textarea
          id="request-note"
          rows={2}
          value={note}
          onInput={(event) => setNote(event.currentTarget.value)}
        />
        <label class="check">
          <input
            type="checkbox"
            checked={consent}
            onChange={(event) => setConsent(event.currentTarget.checked)}
          />
          The end user consents to the number being registered for them
        </label>
        {action.error === undefined ? null : <ErrorNotice error={action.error} />}
        <div class="actions">
          <button type="submit" class="secondary" disabled={action.busy}>
            {action.busy ? "Requesting…" : "Request a number"}
          </button>
        </div>
      </form>
      <p class="status-line" role="status">
        {said}
      </p>
      <Loaded load={requests} label="Loading the requests…">
        {(page) =>
          page.items.length === 0 ? (
            <p class="empty">No number requested yet.</p>
          ) : (
            <DataTable<Schema<"PhoneNumberRequest">>
              caption={`Requests (the ${requestsShown} newest)`}
              rows={page.items}
              rowKey={(request) => request.id}
              columns={[
                { header: "Request", cell: (request) => String(request.id) },
                { header: "End user", cell: (request) => String(request.end_user_id) },
                { header: "Type", cell: (request) => request.number_type ?? "any" },
                { header: "Note", cell: (request) => request.note || "—" },
                { header: "Status", cell: (request) => request.status },
                { header: "Requested", cell: (request) => formatDateTime(request.created_at) }
              ]}
            />
          )
        }
      </Loaded>
    </section>
  )
}
