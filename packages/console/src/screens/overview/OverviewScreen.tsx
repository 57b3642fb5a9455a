import type { Schema } from "../../api/Client.js"
import { DataTable } from "../../components/DataTable.js"
import { Loaded } from "../../components/Feedback.js"
import { PageHeading } from "../../components/PageHeading.js"
import { useLoad } from "../../data/useLoad.js"
import { Link } from "../../routing/Link.js"
import { api } from "../../session/Session.js"
import {
  formatCount,
  formatDateTime,
  formatDuration,
  formatMinutes,
  formatMoney,
  formatStatus
} from "../../text/Formats.js"
import { agentPath } from "../agents/AgentPaths.js"
import { RunLink } from "../runs/RunLink.js"

/** How many of the newest runs are shown. */
const runsShown = 10

/** The campaigns running now (the list has no status filter: its first 100, newest first, are read). */
const runningCampaigns = async (signal: AbortSignal) => {
  const page = await api.get("/api/v1/campaigns", { query: { limit: 100 }, signal })
  return page.items.filter((campaign) => campaign.status === "running")
}

/**
 * The overview: this period's usage, the outbound channels calls hold now, the newest runs of every agent
 * and the running campaigns.
 */
export const OverviewScreen = () => {
  const usage = useLoad((signal) => api.get("/api/v1/usage", { signal }), [])
  const runs = useLoad((signal) => api.get("/api/v1/runs", { query: { limit: runsShown }, signal }), [])
  const organization = useLoad((signal) => api.get("/api/v1/organization", { signal }), [])
  const campaigns = useLoad(runningCampaigns, [])
  return (
    <>
      <PageHeading title="Overview" />
      <section aria-labelledby="usage-heading">
        <h2 id="usage-heading">This period</h2>
        <Loaded load={usage}>
          {(summary) => (
            <>
              <p class="muted">
                From {formatDateTime(summary.from)} to {formatDateTime(summary.to)}
              </p>
              <dl class="figures">
                <div>
                  <dt>Calls</dt>
                  <dd>{formatCount(summary.calls)}</dd>
                </div>
                <div>
                  <dt>Minutes</dt>
                  <dd>{formatMinutes(summary.duration_seconds)}</dd>
                </div>
                <div>
                  <dt>Cost</dt>
                  <dd>{formatMoney(summary.cost_pln, summary.currency)}</dd>
                </div>
              </dl>
            </>
          )}
        </Loaded>
      </section>
      <section aria-labelledby="channels-heading">
        <h2 id="channels-heading">Channels</h2>
        <Loaded load={organization}>
          {(data) => (
            <dl class="figures">
              <div>
                <dt>Busy now</dt>
                <dd>
                  {formatCount(data.channels_busy)} of {formatCount(data.outbound_channels)}
                </dd>
              </div>
              <div>
                <dt>Balance</dt>
                <dd>{formatMoney(data.balance_pln)}</dd>
              </div>
            </dl>
          )}
        </Loaded>
      </section>
      <section aria-labelledby="runs-heading">
        <h2 id="runs-heading">Recent runs</h2>
        <Loaded load={runs}>
          {({ items }) =>
            items.length === 0 ? (
              <p class="empty">
                No runs yet. <Link to="agents">Open an agent</Link> to talk to it or place a call.
              </p>
            ) : (
              <DataTable<Schema<"RunListItem">>
                caption="The newest runs of every agent"
                rows={items}
                rowKey={(run) => run.workflow_run_id}
                columns={[
                  {
                    header: "Run",
                    cell: (run) => <RunLink runId={run.workflow_run_id} agentId={run.agent_id} />
                  },
                  {
                    header: "Agent",
                    cell: (run) => <Link to={agentPath(run.agent_id)}>{run.agent_name}</Link>
                  },
                  { header: "Mode", cell: (run) => run.mode },
                  { header: "Status", cell: (run) => formatStatus(run.status) },
                  { header: "Started", cell: (run) => formatDateTime(run.created_at) },
                  { header: "Duration", cell: (run) => formatDuration(run.duration_seconds) }
                ]}
              />
            )
          }
        </Loaded>
      </section>
      <section aria-labelledby="campaigns-heading">
        <h2 id="campaigns-heading">Running campaigns</h2>
        <Loaded load={campaigns}>
          {(items) =>
            items.length === 0 ? (
              <p class="empty">No campaign is running.</p>
            ) : (
              <ul class="campaign-list">
                {items.map((campaign) => (
                  <li key={campaign.campaign_id}>
                    <CampaignProgress campaign={campaign} />
                  </li>
                ))}
              </ul>
            )
          }
        </Loaded>
      </section>
    </>
  )
}

/** A campaign's name and how far it is: contacts done of all, as a bar and in words. */
const CampaignProgress = ({ campaign }: { readonly campaign: Schema<"Campaign"> }) => {
  const { total, completed, failed, skipped, in_progress } = campaign.counts
  const done = completed + failed + skipped
  return (
    <div class="campaign-progress">
      <span class="campaign-name">{campaign.name}</span>
      <progress max={Math.max(1, total)} value={done} aria-label={`Progress of ${campaign.name}`} />
      <span class="muted">
        {formatCount(done)} of {formatCount(total)} contacts done · {formatCount(in_progress)} in progress
      </span>
    </div>
  )
}
