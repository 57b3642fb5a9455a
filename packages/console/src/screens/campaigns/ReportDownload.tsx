import { ErrorNotice } from "../../components/Feedback.js"
import { useAction } from "../../data/useAction.js"
import { api } from "../../session/Session.js"

/**
 * The campaign's report as a CSV file: fetched with the key (a plain link could not send it), then saved
 * through a link to the file in memory, which is let go right after.
 */
export const ReportDownload = ({ campaignId }: { readonly campaignId: number }) => {
  const action = useAction()
  const download = () =>
    action.run(async () => {
      const file = await api.download(
        "/api/v1/campaigns/{campaign_id}/report",
        { path: { campaign_id: campaignId } },
        "text/csv"
      )
      const url = URL.createObjectURL(file)
      const link = document.createElement("a")
      link.href = url
      link.download = `campaign-${campaignId}-report.csv`
      document.body.append(link)
      link.click()
      link.remove()
      setTimeout(() => URL.revokeObjectURL(url), 10_000)
    })
  return (
    <span class="report-download">
      <button type="button" class="secondary" onClick={download} disabled={action.busy}>
        {action.busy ? "Preparing the CSV…" : "Download the report (CSV)"}
      </button>
      {action.error === undefined ? null : <ErrorNotice error={action.error} />}
    </span>
  )
}
