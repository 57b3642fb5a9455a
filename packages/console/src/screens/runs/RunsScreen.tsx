import type { Schema } from "../../api/Client.js"
import { Loaded } from "../../components/Feedback.js"
import { FilterSelect } from "../../components/FilterSelect.js"
import { PageHeading } from "../../components/PageHeading.js"
import { PagedTable } from "../../components/PagedTable.js"
import { useLoad } from "../../data/useLoad.js"
import { Link } from "../../routing/Link.js"
import type { ScreenProps } from "../../routing/Routes.js"
import { api } from "../../session/Session.js"
import { formatDateTime, formatDuration, formatStatus } from "../../text/Formats.js"
import { agentPath } from "../agents/AgentPaths.js"
import { runModes, runStatuses, runsRequestOf } from "./RunFilters.js"
import { RunLink } from "./RunLink.js"
import { RunSearch } from "./RunSearch.js"

/** Agents offered in the agent filter (the first 100, newest first). */
const agentsOffered = 100

/**
 * The organization's runs of every agent, newest first, a page at a time; every filter (status, mode,
 * agent, phone number, disposition, days) and the page are in the address, so a view can be reloaded,
 * shared and left with the back button.
 */
export const RunsScreen = ({ query }: ScreenProps) => {
  const request = runsRequestOf(query)
  const runs = useLoad(
    (signal) => api.get("/api/v1/runs", { query: request, signal }),
    [JSON.stringify(request)]
  )
  const agents = useLoad(
    (signal) => api.get("/api/v1/agents", { query: { limit: agentsOffered }, signal }),
    []
  )
  return (
    <>
      <PageHeading title="Runs" />
      <div class="filters">
        <FilterSelect
          name="status"
          label="Status"
          options={runStatuses.map((status) => ({ value: status, label: formatStatus(status) }))}
        />
        <FilterSelect
          name="mode"
          label="Mode"
          options={runModes.map((mode) => ({ value: mode, label: mode }))}
        />
        {agents.state === "ready" ? (
          <FilterSelect
            name="agent_id"
            label="Agent"
            options={agents.data.items.map((agent) => ({ value: agent.public_id, label: agent.name }))}
          />
        ) : null}
      </div>
      <RunSearch query={query} />
      <Loaded load={runs} label="Loading the runs…">
        {(page) => (
          <PagedTable<Schema<"RunListItem">>
            caption="Runs"
            page={page}
            rowKey={(run) => run.workflow_run_id}
            empty={
              query.toString() === "" ? "No runs yet: place a call or talk to an agent." : "No run matches."
            }
            columns={[
              {
                header: "Run",
                cell: (run) => <RunLink runId={run.workflow_run_id} agentId={run.agent_id} />
              },
              { header: "Agent", cell: (run) => <Link to={agentPath(run.agent_id)}>{run.agent_name}</Link> },
              { header: "Phone number", cell: (run) => run.phone_number ?? "—" },
              { header: "Mode", cell: (run) => run.mode },
              { header: "Status", cell: (run) => formatStatus(run.status) },
              { header: "Disposition", cell: (run) => run.disposition ?? "—" },
              { header: "Started", cell: (run) => formatDateTime(run.created_at) },
              { header: "Duration", cell: (run) => formatDuration(run.duration_seconds) }
            ]}
          />
        )}
      </Loaded>
    </>
  )
}
