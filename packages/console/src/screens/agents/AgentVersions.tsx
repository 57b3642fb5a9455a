import type { Schema } from "../../api/Client.js"
import { DataTable } from "../../components/DataTable.js"
import { DiffView } from "../../components/DiffView.js"
import { setQuery } from "../../routing/Location.js"
import { formatDateTime } from "../../text/Formats.js"

type Definition = Schema<"AgentDefinition">

/** The version a query names (`?from=2`), if it is one of the versions listed. */
const versionIn = (query: URLSearchParams, name: string, versions: ReadonlyArray<Definition>) => {
  const wanted = Number(query.get(name))
  return versions.find((definition) => definition.version === wanted)
}

/**
 * The agent's definition versions, newest first, and two of them compared (the prompt and the first
 * message, line by line): by default the one before the current and the current; the choice is in the
 * address (`?from=…&to=…`).
 */
export const AgentVersions = ({
  agent,
  versions,
  query
}: {
  readonly agent: Schema<"Agent">
  readonly versions: ReadonlyArray<Definition>
  readonly query: URLSearchParams
}) => {
  const newestFirst = [...versions].sort((a, b) => b.version - a.version)
  const current =
    newestFirst.find((definition) => definition.id === agent.current_definition_id) ?? newestFirst[0]
  const to = versionIn(query, "to", newestFirst) ?? current
  const from =
    versionIn(query, "from", newestFirst) ??
    newestFirst.find((definition) => to !== undefined && definition.version < to.version) ??
    to
  return (
    <section aria-labelledby="versions-heading">
      <h2 id="versions-heading">Versions</h2>
      <DataTable<Definition>
        caption="The agent's versions, newest first"
        rows={newestFirst}
        rowKey={(definition) => definition.id}
        columns={[
          { header: "Version", cell: (definition) => definition.version },
          { header: "Created", cell: (definition) => formatDateTime(definition.created_at) },
          {
            header: "In use",
            cell: (definition) => (definition.id === agent.current_definition_id ? "Current" : "—")
          }
        ]}
      />
      {from === undefined || to === undefined || newestFirst.length < 2 ? (
        <p class="empty">There is one version: nothing to compare yet.</p>
      ) : (
        <>
          <div class="filters">
            <VersionSelect label="Compare version" name="from" value={from} versions={newestFirst} />
            <VersionSelect label="with version" name="to" value={to} versions={newestFirst} />
          </div>
          <DiffView
            label={`System prompt: version ${from.version} to version ${to.version}`}
            before={from.workflow_definition.system_prompt}
            after={to.workflow_definition.system_prompt}
          />
          <DiffView
            label={`First message: version ${from.version} to version ${to.version}`}
            before={from.workflow_definition.first_message}
            after={to.workflow_definition.first_message}
          />
        </>
      )}
    </section>
  )
}

const VersionSelect = ({
  label,
  name,
  value,
  versions
}: {
  readonly label: string
  readonly name: string
  readonly value: Definition
  readonly versions: ReadonlyArray<Definition>
}) => (
  <div class="filter">
    <label for={`version-${name}`}>{label}</label>
    <select
      id={`version-${name}`}
      value={String(value.version)}
      onChange={(event) => setQuery({ [name]: event.currentTarget.value })}
    >
      {versions.map((definition) => (
        <option key={definition.id} value={String(definition.version)}>
          {definition.version}
        </option>
      ))}
    </select>
  </div>
)
