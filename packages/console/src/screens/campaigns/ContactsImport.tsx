import { useState } from "preact/hooks"
import type { Schema } from "../../api/Client.js"
import { DataTable } from "../../components/DataTable.js"
import { ErrorNotice, LoadingNotice } from "../../components/Feedback.js"
import { useAction } from "../../data/useAction.js"
import { api } from "../../session/Session.js"
import { formatCount } from "../../text/Formats.js"

/** The invalid rows listed under the figures; the rest are counted. */
const invalidShown = 20

type Preflight = Schema<"CampaignContactsPreflight">
type Imported = Schema<"CampaignContactsImport">

const plural = (count: number, one: string, many: string) =>
  `${formatCount(count)} ${count === 1 ? one : many}`

/**
 * Contacts from a CSV file: once chosen, the file is checked (the API's preflight: rows, invalid numbers,
 * duplicates, Do not call hits, those outside calling hours now) and nothing is imported until the person
 * imports it after reading that.
 */
export const ContactsImport = ({
  campaignId,
  onImported
}: {
  readonly campaignId: number
  readonly onImported: () => void
}) => {
  const [file, setFile] = useState<File | undefined>(undefined)
  const [preflight, setPreflight] = useState<Preflight | undefined>(undefined)
  const [imported, setImported] = useState<Imported | undefined>(undefined)
  // a new input after each import, so the same file can be chosen again
  const [inputRound, setInputRound] = useState(0)
  const checking = useAction()
  const importing = useAction()
  const path = { campaign_id: campaignId }

  const choose = (chosen: File | undefined) => {
    setFile(chosen)
    setPreflight(undefined)
    setImported(undefined)
    importing.clear()
    if (chosen === undefined) return
    void checking.run(async () => {
      setPreflight(
        await api.post("/api/v1/campaigns/{campaign_id}/contacts/preflight", {
          path,
          content: { type: "text/csv", data: chosen }
        })
      )
    })
  }

  const importFile = () => {
    if (file === undefined) return
    void importing.run(async () => {
      const answer = await api.post("/api/v1/campaigns/{campaign_id}/contacts", {
        path,
        content: { type: "text/csv", data: file }
      })
      setImported(answer)
      setFile(undefined)
      setPreflight(undefined)
      setInputRound((n) => n + 1)
      onImported()
    })
  }

  return (
    <section aria-labelledby="contacts-heading" class="panel">
      <h2 id="contacts-heading">Add contacts</h2>
      <label for="contacts-file">CSV file of contacts</label>
      <input
        key={inputRound}
        id="contacts-file"
        type="file"
        accept=".csv,text/csv"
        aria-describedby="contacts-file-hint"
        onChange={(event) => choose(event.currentTarget.files?.[0])}
      />
      <p id="contacts-file-hint" class="hint">
        A header row with <code>phone_number</code> (numbers in international form, e.g. +48 500 100 200);
        every other column is given to the agent as the contact's context. The file is checked before anything
        is imported.
      </p>
      {checking.busy ? <LoadingNotice label="Checking the file…" /> : null}
      {checking.error === undefined ? null : <ErrorNotice error={checking.error} />}
      {preflight === undefined ? null : (
        <PreflightFigures preflight={preflight} busy={importing.busy} onImport={importFile} />
      )}
      {importing.error === undefined ? null : <ErrorNotice error={importing.error} />}
      <p class="status-line" role="status">
        {imported === undefined
          ? ""
          : `Imported: ${plural(imported.added, "contact added", "contacts added")}, ${plural(
              imported.duplicates,
              "duplicate",
              "duplicates"
            )} left out, ${plural(imported.rejected.length, "invalid row", "invalid rows")} skipped.`}
      </p>
    </section>
  )
}

/** What importing the file would do, and the button that does it. */
const PreflightFigures = ({
  preflight,
  busy,
  onImport
}: {
  readonly preflight: Preflight
  readonly busy: boolean
  readonly onImport: () => void
}) => (
  <div class="preflight" role="group" aria-labelledby="preflight-heading">
    <h3 id="preflight-heading">Before importing</h3>
    <dl class="figures preflight-figures">
      <div>
        <dt>Rows</dt>
        <dd>{formatCount(preflight.rows)}</dd>
      </div>
      <div>
        <dt>Invalid numbers</dt>
        <dd>{formatCount(preflight.invalid.length)}</dd>
      </div>
      <div>
        <dt>Duplicates</dt>
        <dd>{formatCount(preflight.duplicates)}</dd>
      </div>
      <div>
        <dt>On the Do not call list</dt>
        <dd>{formatCount(preflight.do_not_call)}</dd>
      </div>
      <div>
        <dt>Outside calling hours now</dt>
        <dd>{formatCount(preflight.outside_calling_hours_now)}</dd>
      </div>
      <div>
        <dt>To be added</dt>
        <dd>{formatCount(preflight.would_add)}</dd>
      </div>
    </dl>
    <p class="hint">
      Invalid rows and duplicates are left out. Contacts on the Do not call list are added but never called
      (the dialer skips them); those outside calling hours wait for their window.
    </p>
    {preflight.invalid.length === 0 ? null : (
      <>
        <DataTable<Schema<"RejectedContact">>
          caption="Invalid rows"
          rows={preflight.invalid.slice(0, invalidShown)}
          rowKey={(row) => row.row}
          columns={[
            { header: "Row", cell: (row) => formatCount(row.row) },
            { header: "Number as given", cell: (row) => row.phone_number },
            { header: "Why", cell: (row) => row.detail }
          ]}
        />
        {preflight.invalid.length > invalidShown ? (
          <p class="muted">And {formatCount(preflight.invalid.length - invalidShown)} more invalid rows.</p>
        ) : null}
      </>
    )}
    <div class="actions">
      <button type="button" onClick={onImport} disabled={busy || preflight.would_add === 0}>
        {busy
          ? "Importing…"
          : preflight.would_add === 0
            ? "Nothing to import"
            : `Import ${plural(preflight.would_add, "contact", "contacts")}`}
      </button>
    </div>
  </div>
)
