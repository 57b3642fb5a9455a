import { Loaded } from "../../components/Feedback.js"
import { FilterSelect } from "../../components/FilterSelect.js"
import { PageHeading } from "../../components/PageHeading.js"
import { PagedTable } from "../../components/PagedTable.js"
import { useLoad } from "../../data/useLoad.js"
import { Link } from "../../routing/Link.js"
import { oneOf, pageOf } from "../../routing/QueryState.js"
import type { ScreenProps } from "../../routing/Routes.js"
import { api } from "../../session/Session.js"
import { formatDateTime, formatStatus } from "../../text/Formats.js"
import type { Tool } from "./ToolDraft.js"
import { toolPath } from "./ToolPaths.js"

const statuses = ["active", "archived"] as const
const pageSize = 20

/** The organization's tools, newest first, a page at a time, filtered by status (both in the address). */
export const ToolsScreen = ({ query }: ScreenProps) => {
  const page = pageOf(query)
  const status = oneOf(query, "status", statuses)
  const tools = useLoad(
    (signal) => api.get("/api/v1/tools", { query: { page, limit: pageSize, status }, signal }),
    [page, status]
  )
  return (
    <>
      <PageHeading title="Tools">
        <Link to="tools/new" class="button">
          Create a tool
        </Link>
      </PageHeading>
      <p class="prose">
        What agents can do during a call besides talking: call an HTTP API, transfer the call, hang up. An
        agent uses the tools its definition names.
      </p>
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
      <Loaded load={tools}>
        {(data) => (
          <PagedTable<Tool>
            caption="Tools"
            page={data}
            rowKey={(tool) => tool.tool_uuid}
            empty={status === undefined ? "No tools yet." : `No ${status} tools.`}
            columns={[
              { header: "Name", cell: (tool) => <Link to={toolPath(tool.tool_uuid)}>{tool.name}</Link> },
              { header: "Kind", cell: (tool) => formatStatus(tool.definition.type) },
              { header: "Category", cell: (tool) => tool.category },
              { header: "Status", cell: (tool) => tool.status },
              { header: "Updated", cell: (tool) => formatDateTime(tool.updated_at ?? tool.created_at) }
            ]}
          />
        )}
      </Loaded>
    </>
  )
}
