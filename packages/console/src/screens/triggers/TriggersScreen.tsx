import { useState } from "preact/hooks"
import type { Schema } from "../../api/Client.js"
import { ConfirmDialog } from "../../components/ConfirmDialog.js"
import { CopyButton } from "../../components/CopyButton.js"
import { ErrorNotice, Loaded } from "../../components/Feedback.js"
import { FilterSelect } from "../../components/FilterSelect.js"
import { PageHeading } from "../../components/PageHeading.js"
import { PagedTable } from "../../components/PagedTable.js"
import { useAction } from "../../data/useAction.js"
import { useLoad } from "../../data/useLoad.js"
import { Link } from "../../routing/Link.js"
import { oneOf, pageOf } from "../../routing/QueryState.js"
import type { ScreenProps } from "../../routing/Routes.js"
import { api } from "../../session/Session.js"
import { formatDateTime, textOf } from "../../text/Formats.js"
import { agentPath } from "../agents/AgentPaths.js"
import { agentNames } from "../campaigns/AgentNames.js"
import { CreateTrigger } from "./CreateTrigger.js"
import { TriggerCall } from "./TriggerCall.js"

const pageSize = 20
const statuses = ["active", "archived"] as const

type Trigger = Schema<"Trigger">

/**
 * The organization's triggers (named entry points that place calls with one agent and a base context),
 * a page at a time, filtered by status (both in the address); a new one is created here, and one is
 * deleted (archived: calls through it are refused from then on) after a confirmation.
 */
export const TriggersScreen = ({ query }: ScreenProps) => {
  const page = pageOf(query)
  const status = oneOf(query, "status", statuses)
  const triggers = useLoad(
    (signal) => api.get("/api/v1/triggers", { query: { page, limit: pageSize, status }, signal }),
    [page, status]
  )
  const agents = useLoad(agentNames, [])
  const [archiving, setArchiving] = useState<Trigger | undefined>(undefined)
  const [said, setSaid] = useState("")
  // counts the changes to the list, so the call form offers the active triggers as they are
  const [version, setVersion] = useState(0)
  const archive = useAction()

  const confirmArchive = () =>
    archive.run(async () => {
      if (archiving === undefined) return
      await api.delete("/api/v1/triggers/{trigger_id}", { path: { trigger_id: archiving.trigger_id } })
      setSaid(`The trigger ${archiving.name} was deleted: calls through it are refused.`)
      setArchiving(undefined)
      setVersion((n) => n + 1)
      triggers.reload()
    })

  const agentOf = (trigger: Trigger) =>
    agents.state === "ready" ? agents.data.byWorkflowId.get(trigger.workflow_id) : undefined

  return (
    <>
      <PageHeading title="Triggers">
        <Link to="campaigns" class="button secondary">
          Campaigns
        </Link>
      </PageHeading>
      <p class="muted">
        A trigger places calls with one agent: <code>POST /api/v1/triggers/&#123;trigger_id&#125;/calls</code>{" "}
        with the number to call; the call's context starts from the trigger's.
      </p>
      <Loaded load={agents} label="Loading the agents…">
        {(data) => (
          <CreateTrigger
            agents={data.agents.filter((agent) => agent.status === "active")}
            onCreated={(trigger) => {
              setSaid(`The trigger ${trigger.name} was created.`)
              setVersion((n) => n + 1)
              triggers.reload()
            }}
          />
        )}
      </Loaded>
      <p class="status-line" role="status">
        {said}
      </p>
      <div class="filters">
        <FilterSelect
          name="status"
          label="Status"
          options={[
            { value: "active", label: "Active" },
            { value: "archived", label: "Deleted (archived)" }
          ]}
        />
      </div>
      <Loaded load={triggers}>
        {(data) => (
          <PagedTable<Trigger>
            caption="Triggers"
            page={data}
            rowKey={(trigger) => trigger.trigger_id}
            empty={status === undefined ? "No triggers yet." : `No ${status} triggers.`}
            columns={[
              { header: "Name", cell: (trigger) => trigger.name },
              {
                header: "Trigger id",
                cell: (trigger) => (
                  <>
                    <code>{trigger.trigger_id}</code> <CopyButton text={trigger.trigger_id} label="Copy" />
                  </>
                )
              },
              {
                header: "Agent",
                cell: (trigger) => {
                  const agent = agentOf(trigger)
                  return agent === undefined ? (
                    `Agent ${trigger.workflow_id}`
                  ) : (
                    <Link to={agentPath(agent.public_id)}>{agent.name}</Link>
                  )
                }
              },
              {
                header: "Context",
                cell: (trigger) =>
                  Object.keys(trigger.initial_context).length === 0 ? "—" : textOf(trigger.initial_context)
              },
              { header: "Status", cell: (trigger) => (trigger.status === "archived" ? "deleted" : "active") },
              { header: "Created", cell: (trigger) => formatDateTime(trigger.created_at) },
              {
                header: "Actions",
                cell: (trigger) =>
                  trigger.status === "archived" ? (
                    "—"
                  ) : (
                    <button
                      type="button"
                      class="secondary small"
                      onClick={() => {
                        archive.clear()
                        setArchiving(trigger)
                      }}
                    >
                      Delete<span class="visually-hidden"> {trigger.name}</span>
                    </button>
                  )
              }
            ]}
          />
        )}
      </Loaded>
      <TriggerCall version={version} />
      <ConfirmDialog
        open={archiving !== undefined}
        title={`Delete the trigger ${archiving?.name ?? ""}?`}
        confirmLabel="Delete the trigger"
        cancelLabel="Keep it"
        busy={archive.busy}
        onConfirm={confirmArchive}
        onCancel={() => setArchiving(undefined)}
      >
        <p>
          Calls through it are refused from then on; it stays listed as deleted, and integrations that use its
          id stop placing calls.
        </p>
        {archive.error === undefined ? null : <ErrorNotice error={archive.error} />}
      </ConfirmDialog>
    </>
  )
}
