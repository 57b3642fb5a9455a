import type { Schema } from "../../api/Client.js"
import { Loaded } from "../../components/Feedback.js"
import { PageHeading } from "../../components/PageHeading.js"
import { PagedTable } from "../../components/PagedTable.js"
import { usePollWhile } from "../../data/usePollWhile.js"
import { useLoad } from "../../data/useLoad.js"
import { Link } from "../../routing/Link.js"
import { pageOf } from "../../routing/QueryState.js"
import type { ScreenProps } from "../../routing/Routes.js"
import { api } from "../../session/Session.js"
import { formatDateTime, formatStatus } from "../../text/Formats.js"
import { agentPath } from "../agents/AgentPaths.js"
import { agentNames } from "./AgentNames.js"
import { campaignPath, newCampaignPath } from "./CampaignPaths.js"
import { CampaignProgress } from "./CampaignProgress.js"
import { isLive } from "./CampaignRules.js"

const pageSize = 20
/** How often the list is read again while one of its campaigns runs. */
const refreshMillis = 5_000

/**
 * The organization's campaigns, newest first, a page at a time (the page in the address), each with its
 * progress; the page refreshes itself while one of its campaigns runs. Links to the Do not call list and
 * the triggers, the other ways calls are governed and placed.
 */
export const CampaignsScreen = ({ query }: ScreenProps) => {
  const page = pageOf(query)
  const campaigns = useLoad(
    (signal) => api.get("/api/v1/campaigns", { query: { page, limit: pageSize }, signal }),
    [page]
  )
  const running = campaigns.state === "ready" && campaigns.data.items.some((c) => isLive(c.status))
  usePollWhile(running, refreshMillis, campaigns)
  const agents = useLoad(agentNames, [])
  const agentName = (id: string) =>
    (agents.state === "ready" ? agents.data.byPublicId.get(id) : undefined) ?? id
  return (
    <>
      <PageHeading title="Campaigns">
        <Link to={newCampaignPath} class="button">
          Create a campaign
        </Link>
        <Link to="do-not-call" class="button secondary">
          Do not call list
        </Link>
        <Link to="triggers" class="button secondary">
          Triggers
        </Link>
      </PageHeading>
      <Loaded load={campaigns}>
        {(data) => (
          <PagedTable<Schema<"Campaign">>
            caption="Campaigns"
            page={data}
            rowKey={(campaign) => campaign.campaign_id}
            empty="No campaigns yet: create one, then add its contacts from a CSV file."
            columns={[
              {
                header: "Name",
                cell: (campaign) => <Link to={campaignPath(campaign.campaign_id)}>{campaign.name}</Link>
              },
              { header: "Status", cell: (campaign) => formatStatus(campaign.status) },
              {
                header: "Progress",
                cell: (campaign) => <CampaignProgress name={campaign.name} counts={campaign.counts} />
              },
              {
                header: "Agent",
                cell: (campaign) => (
                  <Link to={agentPath(campaign.agent_id)}>{agentName(campaign.agent_id)}</Link>
                )
              },
              { header: "Created", cell: (campaign) => formatDateTime(campaign.created_at) }
            ]}
          />
        )}
      </Loaded>
    </>
  )
}
