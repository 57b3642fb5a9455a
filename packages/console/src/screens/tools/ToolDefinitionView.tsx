import { DataTable } from "../../components/DataTable.js"
import type { Tool } from "./ToolDraft.js"

type Parameter = { name: string; type: string; description: string; required: boolean }

/** One fact of the definition: its name and its value (text), left out when there is none. */
const Fact = ({ term, value }: { readonly term: string; readonly value: string | null | undefined }) =>
  value === null || value === undefined || value === "" ? null : (
    <div>
      <dt>{term}</dt>
      <dd class="prose">{value}</dd>
    </div>
  )

/** What the tool does, as its definition says: an HTTP API tool's request and answer, a transfer's number… */
export const ToolDefinitionView = ({ tool }: { readonly tool: Tool }) => {
  const definition = tool.definition
  const parameters: ReadonlyArray<Parameter> =
    "parameters" in definition.config ? (definition.config.parameters ?? []) : []
  return (
    <section aria-labelledby="definition-heading">
      <h2 id="definition-heading">What it does</h2>
      <dl class="facts">
        {definition.type === "http_api" ? (
          <>
            <Fact term="Request" value={`${definition.config.method} ${definition.config.url}`} />
            <Fact
              term="Headers"
              value={Object.entries(definition.config.headers ?? {})
                .map(([name, value]) => `${name}: ${value}`)
                .join("\n")}
            />
            <Fact term="Credential" value={definition.config.credential_uuid} />
            <Fact term="Timeout" value={`${definition.config.timeout_ms ?? 5000} ms`} />
            <Fact term="Response fields" value={(definition.config.response_fields ?? []).join("\n")} />
            <Fact term="Said while waiting" value={definition.config.wait_message} />
            <Fact term="Said when it fails" value={definition.config.error_message} />
            <Fact term="Trigger phrases" value={(definition.config.trigger_phrases ?? []).join("\n")} />
          </>
        ) : definition.type === "transfer" ? (
          <>
            <Fact
              term="Transfers to"
              value={definition.config.destination_number ?? "one of the agent's transfer numbers"}
            />
            <Fact term="Said before transferring" value={definition.config.message} />
          </>
        ) : definition.type === "end_call" ? (
          <Fact
            term="Before hanging up"
            value={
              definition.config.messageType === "custom"
                ? `says: ${definition.config.customMessage ?? ""}`
                : "says nothing more"
            }
          />
        ) : (
          <>
            <Fact term="Provider" value={definition.config.provider} />
            <Fact term="Action" value={definition.config.action} />
            <Fact
              term="Edited"
              value="through the API only: the console edits HTTP API, transfer and end call tools."
            />
          </>
        )}
      </dl>
      {parameters.length === 0 ? null : (
        <DataTable<Parameter>
          caption="Parameters the agent passes"
          rows={parameters}
          rowKey={(parameter) => parameter.name}
          columns={[
            { header: "Name", cell: (parameter) => <code>{parameter.name}</code> },
            { header: "Type", cell: (parameter) => parameter.type },
            { header: "Required", cell: (parameter) => (parameter.required ? "yes" : "no") },
            { header: "What it is", cell: (parameter) => parameter.description }
          ]}
        />
      )}
    </section>
  )
}
