import type { Schema } from "../../api/Client.js"
import { Loaded } from "../../components/Feedback.js"
import { FilterSelect } from "../../components/FilterSelect.js"
import { PageHeading } from "../../components/PageHeading.js"
import { PagedTable } from "../../components/PagedTable.js"
import { useLoad } from "../../data/useLoad.js"
import { Link } from "../../routing/Link.js"
import { oneOf, pageOf } from "../../routing/QueryState.js"
import type { ScreenProps } from "../../routing/Routes.js"
import { api } from "../../session/Session.js"
import { formatCount, formatDateTime } from "../../text/Formats.js"
import { agentPath } from "./AgentPaths.js"

const statuses = ["active", "archived"] as const
const pageSize = 20

/** The organization's agents, a page at a time, filtered by status (both in the address). */
export const AgentsScreen = ({ query }: ScreenProps) => {
  const page = pageOf(query)
  const status = oneOf(query, "status", statuses)
  const agents = useLoad(
    (signal) => api.get("/api/v1/agents", { query: { page, limit: pageSize, status }, signal }),
    [page, status]
  )
  return (
    <>
      <PageHeading title="Agents">
        <Link to="agents/new" class="button">
          Create an agent from a script
        </Link>
      </PageHeading>
      <div class="filters">
        <FilterSelect
          name="status"
          label="Status"
          options={[
            { value: "active", label: "Active" },
            { value: "archived", label: "Archived" }
          ]}
        />
      </div>
      <Loaded load={agents}>
        {(data) => (
          <PagedTable<Schema<"Agent">>
            caption="Agents"
            page={data}
            rowKey={(agent) => agent.id}
            empty={
              status === undefined ? "No agents yet: create one from a call script." : `No ${status} agents.`
            }
            columns={[
              { header: "Name", cell: (agent) => <Link to={agentPath(agent.public_id)}>{agent.name}</Link> },
              { header: "Status", cell: (agent) => agent.status },
              { header: "Runs", cell: (agent) => formatCount(agent.total_runs) },
              { header: "Updated", cell: (agent) => formatDateTime(agent.updated_at) }
            ]}
          />
        )}
      </Loaded>
    </>
  )
}
