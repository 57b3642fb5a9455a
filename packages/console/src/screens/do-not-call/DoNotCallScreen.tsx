import { useState } from "preact/hooks"
import type { Schema } from "../../api/Client.js"
import { ConfirmDialog } from "../../components/ConfirmDialog.js"
import { ErrorNotice, Loaded } from "../../components/Feedback.js"
import { PageHeading } from "../../components/PageHeading.js"
import { PagedTable } from "../../components/PagedTable.js"
import { useAction } from "../../data/useAction.js"
import { useLoad } from "../../data/useLoad.js"
import { Link } from "../../routing/Link.js"
import { pageOf } from "../../routing/QueryState.js"
import type { ScreenProps } from "../../routing/Routes.js"
import { api } from "../../session/Session.js"
import { formatDateTime } from "../../text/Formats.js"

const pageSize = 20

type Entry = Schema<"DoNotCallEntry">

/**
 * The organization's Do not call list, newest first, a page at a time (in the address): a listed number
 * is never called (calls to it are refused; campaigns skip it). A number is added with its reason, and
 * taken off after a confirmation.
 */
export const DoNotCallScreen = ({ query }: ScreenProps) => {
  const page = pageOf(query)
  const entries = useLoad(
    (signal) => api.get("/api/v1/do-not-call", { query: { page, limit: pageSize }, signal }),
    [page]
  )
  const [said, setSaid] = useState("")
  const [removing, setRemoving] = useState<Entry | undefined>(undefined)
  const removal = useAction()

  const remove = () =>
    removal.run(async () => {
      if (removing === undefined) return
      await api.delete("/api/v1/do-not-call/{phone_number}", {
        path: { phone_number: removing.phone_number }
      })
      setSaid(`${removing.phone_number} was taken off the list: it can be called again.`)
      setRemoving(undefined)
      entries.reload()
    })

  return (
    <>
      <PageHeading title="Do not call list">
        <Link to="campaigns" class="button secondary">
          Campaigns
        </Link>
      </PageHeading>
      <p class="muted">
        Numbers listed here are never called: a call to one is refused, and campaigns skip it.
      </p>
      <AddNumber
        onAdded={(entry) => {
          setSaid(`${entry.phone_number} is on the list.`)
          entries.reload()
        }}
      />
      <p class="status-line" role="status">
        {said}
      </p>
      <Loaded load={entries}>
        {(data) => (
          <PagedTable<Entry>
            caption="Listed numbers"
            page={data}
            rowKey={(entry) => entry.phone_number}
            empty="No number is on the list."
            columns={[
              { header: "Number", cell: (entry) => entry.phone_number },
              { header: "Reason", cell: (entry) => entry.reason ?? "—" },
              { header: "Listed", cell: (entry) => formatDateTime(entry.created_at) },
              {
                header: "Actions",
                cell: (entry) => (
                  <button
                    type="button"
                    class="secondary small"
                    onClick={() => {
                      removal.clear()
                      setRemoving(entry)
                    }}
                  >
                    Remove<span class="visually-hidden"> {entry.phone_number}</span>
                  </button>
                )
              }
            ]}
          />
        )}
      </Loaded>
      <ConfirmDialog
        open={removing !== undefined}
        title={`Take ${removing?.phone_number ?? "the number"} off the list?`}
        confirmLabel="Take it off the list"
        cancelLabel="Keep it listed"
        busy={removal.busy}
        onConfirm={remove}
        onCancel={() => setRemoving(undefined)}
      >
        <p>The number can be called again, by calls and by campaigns.</p>
        {removal.error === undefined ? null : <ErrorNotice error={removal.error} />}
      </ConfirmDialog>
    </>
  )
}

/** The form that lists a number, with an optional reason. */
const AddNumber = ({ onAdded }: { readonly onAdded: (entry: Entry) => void }) => {
  const [number, setNumber] = useState("")
  const [reason, setReason] = useState("")
  const action = useAction()
  const add = (event: Event) => {
    event.preventDefault()
    return action.run(async () => {
      if (number.trim() === "") throw new Error("Give the number to list.")
      const entry = await api.post("/api/v1/do-not-call", {
        body: { phone_number: number.trim(), ...(reason.trim() === "" ? {} : { reason: reason.trim() }) }
      })
      setNumber("")
      setReason("")
      onAdded(entry)
    })
  }
  return (
    <form class="stacked inline-form" onSubmit={add} aria-labelledby="add-dnc-heading">
      <h2 id="add-dnc-heading">Add a number</h2>
      <label for="dnc-number">Phone number</label>
      <input
        id="dnc-number"
        type="tel"
        value={number}
        aria-describedby="dnc-number-hint"
        onInput={(event) => setNumber(event.currentTarget.value)}
      />
      <p id="dnc-number-hint" class="hint">
        In international form, e.g. +48 500 100 200.
      </p>
      <label for="dnc-reason">Reason (optional)</label>
      <input id="dnc-reason" value={reason} onInput={(event) => setReason(event.currentTarget.value)} />
      {action.error === undefined ? null : <ErrorNotice error={action.error} />}
      <div class="actions">
        <button type="submit" disabled={action.busy}>
          {action.busy ? "Adding…" : "Add to the list"}
        </button>
      </div>
    </form>
  )
}
