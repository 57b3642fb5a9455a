import type { Schema } from "../../api/Client.js"
import { FilterSelect } from "../../components/FilterSelect.js"
import { PagedTable } from "../../components/PagedTable.js"
import { formatDateTime, formatDuration, formatStatus } from "../../text/Formats.js"
import { RunLink } from "../runs/RunLink.js"
import { RemoveContact } from "./RemoveContact.js"

/** A contact's statuses, the report's filter. */
export const contactStatuses = ["pending", "in_progress", "completed", "failed", "skipped"] as const

/** One page of the campaign's contacts with what happened to each, filtered by status (in the address). */
export const CampaignReportTable = ({
  report,
  status,
  onRemoved
}: {
  readonly report: Schema<"CampaignReport">
  readonly status: string | undefined
  /** Given while contacts can be removed (the campaign is `created` or `paused`): pending ones get a button. */
  readonly onRemoved?: (() => void) | undefined
}) => (
  <section aria-labelledby="report-heading" class="panel">
    <h2 id="report-heading">Contacts</h2>
    <div class="filters">
      <FilterSelect
        name="status"
        label="Contact status"
        options={contactStatuses.map((value) => ({ value, label: formatStatus(value) }))}
      />
    </div>
    <PagedTable<Schema<"CampaignReportItem">>
      caption="Contacts of the campaign"
      page={report}
      rowKey={(contact) => contact.contact_id}
      empty={
        status === undefined
          ? "No contacts yet: add them from a CSV file."
          : `No ${formatStatus(status)} contacts.`
      }
      columns={[
        { header: "Number", cell: (contact) => contact.phone_number },
        { header: "Status", cell: (contact) => formatStatus(contact.status) },
        { header: "Attempts", cell: (contact) => String(contact.attempts) },
        {
          header: "Last run",
          cell: (contact) => (contact.last_run_id === null ? "—" : <RunLink runId={contact.last_run_id} />)
        },
        { header: "Disposition", cell: (contact) => contact.disposition ?? "—" },
        { header: "Talk time", cell: (contact) => formatDuration(contact.duration_seconds) },
        { header: "Last error", cell: (contact) => contact.last_error ?? "—" },
        { header: "Next attempt", cell: (contact) => formatDateTime(contact.next_attempt_at) },
        ...(onRemoved === undefined
          ? []
          : [
              {
                header: "Actions",
                cell: (contact: Schema<"CampaignReportItem">) =>
                  contact.status === "pending" ? (
                    <RemoveContact
                      campaignId={report.campaign_id}
                      contactId={contact.contact_id}
                      phoneNumber={contact.phone_number}
                      onRemoved={onRemoved}
                    />
                  ) : (
                    "—"
                  )
              }
            ])
      ]}
    />
  </section>
)
