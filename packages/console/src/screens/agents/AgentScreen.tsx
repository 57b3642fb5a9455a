import type { Schema } from "../../api/Client.js"
import { CopyButton } from "../../components/CopyButton.js"
import { DataTable } from "../../components/DataTable.js"
import { Loaded } from "../../components/Feedback.js"
import { PageHeading } from "../../components/PageHeading.js"
import { useLoad } from "../../data/useLoad.js"
import { Link } from "../../routing/Link.js"
import type { ScreenProps } from "../../routing/Routes.js"
import { api } from "../../session/Session.js"
import { formatCount, formatDateTime } from "../../text/Formats.js"
import { AgentPrompt } from "./AgentPrompt.js"
import { AgentResources } from "./AgentResources.js"
import { AgentVersions } from "./AgentVersions.js"
import { chatPath, improvementsPath } from "./AgentPaths.js"
import { DispositionCodes } from "./DispositionCodes.js"

/** The newest definition versions an agent's page lists (and compares). */
const versionsShown = 100

/**
 * An agent's page: what it is, its prompt and first message (edited into a new version), its versions
 * compared, its tools, transfer numbers, knowledge documents, disposition codes and data fields.
 */
export const AgentScreen = ({ params, query }: ScreenProps) => {
  const agentId = params["agentId"]!
  const agent = useLoad(
    (signal) => api.get("/api/v1/agents/{agent_id}", { path: { agent_id: agentId }, signal }),
    []
  )
  const versions = useLoad(
    (signal) =>
      api.get("/api/v1/agents/{agent_id}/definitions", {
        path: { agent_id: agentId },
        query: { limit: versionsShown },
        signal
      }),
    []
  )
  const changed = () => {
    agent.reload()
    versions.reload()
  }
  return (
    <Loaded load={agent}>
      {(data) => (
        <>
          <PageHeading title={data.name}>
            <Link to={chatPath(data.public_id)} class="button">
              Talk to this agent
            </Link>
            <Link to={improvementsPath(data.public_id)} class="button secondary">
              Improvement suggestions
            </Link>
          </PageHeading>
          <AgentFacts agent={data} />
          <AgentPrompt agent={data} onSaved={changed} />
          <Loaded load={versions} label="Loading the versions…">
            {(page) => <AgentVersions agent={data} versions={page.items} query={query} />}
          </Loaded>
          <AgentResources agent={data} />
          <DispositionCodes agent={data} onSaved={agent.reload} />
          <DataFields fields={data.workflow_definition.gathered_fields} />
        </>
      )}
    </Loaded>
  )
}

const AgentFacts = ({ agent }: { readonly agent: Schema<"Agent"> }) => (
  <dl class="facts">
    <div>
      <dt>Status</dt>
      <dd>{agent.status}</dd>
    </div>
    <div>
      <dt>Agent id</dt>
      <dd>
        <code>{agent.public_id}</code> <CopyButton text={agent.public_id} label="Copy the id" />
      </dd>
    </div>
    <div>
      <dt>Language</dt>
      <dd>{agent.workflow_definition.language}</dd>
    </div>
    <div>
      <dt>Runs</dt>
      <dd>{formatCount(agent.total_runs)}</dd>
    </div>
    <div>
      <dt>Updated</dt>
      <dd>{formatDateTime(agent.updated_at)}</dd>
    </div>
  </dl>
)

type GatheredField = Schema<"Agent">["workflow_definition"]["gathered_fields"][number]

/** The data the agent gathers in a conversation. */
const DataFields = ({ fields }: { readonly fields: ReadonlyArray<GatheredField> }) => (
  <section aria-labelledby="data-fields-heading">
    <h2 id="data-fields-heading">Data fields</h2>
    {fields.length === 0 ? (
      <p class="empty">The agent gathers no data fields.</p>
    ) : (
      <DataTable<GatheredField>
        caption="What the agent gathers"
        rows={fields}
        rowKey={(field) => field.name}
        columns={[
          { header: "Name", cell: (field) => <code>{field.name}</code> },
          { header: "Type", cell: (field) => field.type },
          { header: "Description", cell: (field) => field.description ?? "—" }
        ]}
      />
    )}
  </section>
)
