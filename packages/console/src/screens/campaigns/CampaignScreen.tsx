import type { Schema } from "../../api/Client.js"
import { ErrorNotice, Loaded } from "../../components/Feedback.js"
import { PageHeading } from "../../components/PageHeading.js"
import { usePollWhile } from "../../data/usePollWhile.js"
import { useLoad } from "../../data/useLoad.js"
import { Link } from "../../routing/Link.js"
import { oneOf, pageOf } from "../../routing/QueryState.js"
import type { ScreenProps } from "../../routing/Routes.js"
import { api } from "../../session/Session.js"
import { formatCount, formatDateTime, formatDuration, formatMoney, formatStatus } from "../../text/Formats.js"
import { agentPath } from "../agents/AgentPaths.js"
import { CampaignControls } from "./CampaignControls.js"
import { CampaignProgress } from "./CampaignProgress.js"
import { CampaignReportTable, contactStatuses } from "./CampaignReportTable.js"
import { acceptsContacts, isLive } from "./CampaignRules.js"
import { ContactsImport } from "./ContactsImport.js"
import { ReportDownload } from "./ReportDownload.js"

const pageSize = 20
/** How often a running campaign's figures and contacts are read again. */
export const refreshMillis = 3_000

/**
 * A campaign's page: its status with the actions it allows, its live figures (read again every few
 * seconds while it runs, and no more once it stops or the screen is left), its settings, contacts added
 * from a CSV file after a preflight, and its report, a page at a time or as a CSV file.
 */
export const CampaignScreen = ({ params, query }: ScreenProps) => {
  const text = params["campaignId"] ?? ""
  if (!/^\d{1,16}$/.test(text)) return <ErrorNotice error="This address does not name a campaign." />
  return <CampaignPage campaignId={Number(text)} query={query} />
}

const CampaignPage = ({
  campaignId,
  query
}: {
  readonly campaignId: number
  readonly query: URLSearchParams
}) => {
  const page = pageOf(query)
  const status = oneOf(query, "status", contactStatuses)
  const path = { campaign_id: campaignId }
  const loaded = useLoad(
    async (signal) => {
      const [campaign, report] = await Promise.all([
        api.get("/api/v1/campaigns/{campaign_id}", { path, signal }),
        api.get("/api/v1/campaigns/{campaign_id}/report", {
          path,
          query: { page, limit: pageSize, status },
          signal
        })
      ])
      // the report is JSON here (no `Accept: text/csv`)
      return { campaign, report: report as Schema<"CampaignReport"> }
    },
    [campaignId, page, status]
  )
  const live = loaded.state === "ready" && isLive(loaded.data.campaign.status)
  usePollWhile(live, refreshMillis, loaded)
  return (
    <Loaded load={loaded}>
      {({ campaign, report }) => (
        <>
          <PageHeading title={campaign.name}>
            <ReportDownload campaignId={campaign.campaign_id} />
          </PageHeading>
          <p class="campaign-status" role="status">
            Status: <strong class={`status-${campaign.status}`}>{formatStatus(campaign.status)}</strong>
            {live ? ` · refreshed every ${refreshMillis / 1000} s` : ""}
          </p>
          <CampaignControls campaign={campaign} onChanged={loaded.reload} />
          <section aria-labelledby="progress-heading">
            <h2 id="progress-heading">Progress</h2>
            <CampaignProgress name={campaign.name} counts={campaign.counts} />
            <SummaryFigures summary={report.summary} />
          </section>
          {acceptsContacts(campaign.status) ? (
            <ContactsImport campaignId={campaign.campaign_id} onImported={loaded.reload} />
          ) : null}
          <CampaignReportTable
            report={report}
            status={status}
            onRemoved={acceptsContacts(campaign.status) ? loaded.reload : undefined}
          />
          <CampaignFacts campaign={campaign} />
        </>
      )}
    </Loaded>
  )
}

const SummaryFigures = ({ summary }: { readonly summary: Schema<"CampaignReportSummary"> }) => (
  <dl class="figures summary-figures">
    {(
      [
        ["Contacts", formatCount(summary.total)],
        ["Pending", formatCount(summary.pending)],
        ["In progress", formatCount(summary.in_progress)],
        ["Completed", formatCount(summary.completed)],
        ["Failed", formatCount(summary.failed)],
        ["Skipped", formatCount(summary.skipped)],
        ["Attempts", formatCount(summary.attempts)],
        ["Talk time", formatDuration(summary.duration_seconds)],
        ["Cost", formatMoney(summary.cost.amount, summary.cost.currency)]
      ] as const
    ).map(([term, value]) => (
      <div key={term}>
        <dt>{term}</dt>
        <dd>{value}</dd>
      </div>
    ))}
  </dl>
)

/** The campaign's agent and caller number by name (the campaign has their ids), read once. */
const useNames = (campaign: Schema<"Campaign">) =>
  useLoad(
    async (signal) => {
      const numberId = campaign.from_phone_number_id
      const [agent, number] = await Promise.all([
        api.get("/api/v1/agents/{agent_id}", { path: { agent_id: campaign.agent_id }, signal }),
        numberId === null
          ? undefined
          : api.get("/api/v1/phone-numbers/{phone_number_id}", {
              path: { phone_number_id: numberId },
              signal
            })
      ])
      return { agent: agent.name, number: number?.number }
    },
    [campaign.campaign_id]
  )

const CampaignFacts = ({ campaign }: { readonly campaign: Schema<"Campaign"> }) => {
  const names = useNames(campaign)
  const known = names.state === "ready" ? names.data : undefined
  return (
    <section aria-labelledby="settings-heading" class="panel">
      <h2 id="settings-heading">Settings</h2>
      <dl class="facts">
        <div>
          <dt>Agent</dt>
          <dd>
            <Link to={agentPath(campaign.agent_id)}>{known?.agent ?? campaign.agent_id}</Link>
          </dd>
        </div>
        <div>
          <dt>Caller number</dt>
          <dd>
            {campaign.from_phone_number_id === null
              ? "The organization's default"
              : (known?.number ?? `Number ${campaign.from_phone_number_id}`)}
          </dd>
        </div>
        <div>
          <dt>Most calls at once</dt>
          <dd>{formatCount(campaign.max_concurrency)}</dd>
        </div>
        <div>
          <dt>Retries</dt>
          <dd>
            {campaign.retry.max_attempts === 1
              ? "One attempt per contact"
              : `Up to ${campaign.retry.max_attempts} attempts, ${formatDuration(campaign.retry.retry_delay_seconds)} apart, after ${
                  campaign.retry.retry_on.map(formatStatus).join(", ") || "nothing"
                }`}
          </dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{formatDateTime(campaign.created_at)}</dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>{formatDateTime(campaign.started_at)}</dd>
        </div>
        <div>
          <dt>Ended</dt>
          <dd>{formatDateTime(campaign.completed_at)}</dd>
        </div>
      </dl>
    </section>
  )
}
