import { useState } from "preact/hooks"
import { ConfirmDialog } from "../../components/ConfirmDialog.js"
import { CopyButton } from "../../components/CopyButton.js"
import { ErrorNotice, Loaded } from "../../components/Feedback.js"
import { PageHeading } from "../../components/PageHeading.js"
import { useAction } from "../../data/useAction.js"
import { useFocusWhen } from "../../data/useFocusWhen.js"
import { useLoad } from "../../data/useLoad.js"
import type { ScreenProps } from "../../routing/Routes.js"
import { api } from "../../session/Session.js"
import { formatDateTime, formatStatus } from "../../text/Formats.js"
import { ToolDefinitionView } from "./ToolDefinitionView.js"
import { draftOf, type Tool } from "./ToolDraft.js"
import { ToolForm } from "./ToolForm.js"
import { ToolTest } from "./ToolTest.js"

/**
 * A tool's page: what it is and does, its definition edited (an active tool's), archived after a
 * confirmation (the API's "delete"), and tested.
 */
export const ToolScreen = ({ params }: ScreenProps) => {
  const toolUuid = params["toolUuid"]!
  const tool = useLoad(
    (signal) => api.get("/api/v1/tools/{tool_uuid}", { path: { tool_uuid: toolUuid }, signal }),
    [toolUuid]
  )
  return (
    <>
      {/* a heading (and the window's title) while the tool is read or could not be */}
      {tool.state === "ready" ? null : <PageHeading title="Tool" />}
      <Loaded load={tool}>{(data) => <ToolPage tool={data} onChanged={tool.reload} />}</Loaded>
    </>
  )
}

const ToolPage = ({ tool, onChanged }: { readonly tool: Tool; readonly onChanged: () => void }) => {
  const [editing, setEditing] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const archive = useAction()
  const draft = draftOf(tool)
  const active = tool.status === "active"
  // where the focus goes when the control used goes away: the form's heading when it opens, the edit
  // button when it closes, the status when the tool is archived (its buttons gone)
  const formHeading = useFocusWhen<HTMLHeadingElement>(editing)
  const editButton = useFocusWhen<HTMLButtonElement>(!editing)
  const status = useFocusWhen<HTMLElement>(!active && !confirming)
  const confirmArchive = () =>
    archive.run(async () => {
      try {
        await api.delete("/api/v1/tools/{tool_uuid}", { path: { tool_uuid: tool.tool_uuid } })
        onChanged()
      } finally {
        setConfirming(false)
      }
    })
  return (
    <>
      <PageHeading title={tool.name}>
        {active && draft !== undefined && !editing ? (
          <button type="button" ref={editButton} onClick={() => setEditing(true)}>
            Edit the tool
          </button>
        ) : null}
        {active ? (
          <button type="button" class="secondary" onClick={() => setConfirming(true)}>
            Archive the tool
          </button>
        ) : null}
      </PageHeading>
      {archive.error === undefined ? null : <ErrorNotice error={`Not archived: ${archive.error}`} />}
      <dl class="facts">
        <div>
          <dt>Status</dt>
          <dd tabIndex={-1} ref={status}>
            {active ? "active" : "archived: it stays readable, and no longer changes or runs"}
          </dd>
        </div>
        <div>
          <dt>Kind</dt>
          <dd>{formatStatus(tool.definition.type)}</dd>
        </div>
        <div>
          <dt>Category</dt>
          <dd>{tool.category}</dd>
        </div>
        <div>
          <dt>Tool id</dt>
          <dd>
            <code>{tool.tool_uuid}</code> <CopyButton text={tool.tool_uuid} label="Copy the id" />
          </dd>
        </div>
        <div>
          <dt>Description</dt>
          <dd class="prose">{tool.description ?? "—"}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{formatDateTime(tool.created_at)}</dd>
        </div>
        <div>
          <dt>Updated</dt>
          <dd>{formatDateTime(tool.updated_at)}</dd>
        </div>
      </dl>
      {editing && draft !== undefined ? (
        <section aria-labelledby="edit-tool-heading">
          <h2 id="edit-tool-heading" tabIndex={-1} ref={formHeading}>
            Edit the tool
          </h2>
          <ToolForm
            initial={draft}
            typeFixed
            submitLabel="Save the tool"
            onCancel={() => setEditing(false)}
            submit={async (body) => {
              await api.patch("/api/v1/tools/{tool_uuid}", { path: { tool_uuid: tool.tool_uuid }, body })
              setEditing(false)
              onChanged()
            }}
          />
        </section>
      ) : (
        <ToolDefinitionView tool={tool} />
      )}
      {active ? <ToolTest tool={tool} /> : null}
      <ConfirmDialog
        open={confirming}
        title="Archive this tool?"
        confirmLabel={archive.busy ? "Archiving…" : "Archive the tool"}
        busy={archive.busy}
        onConfirm={confirmArchive}
        onCancel={() => setConfirming(false)}
      >
        <p>
          <span class="strong">{tool.name}</span> is archived: agents stop using it, it can no longer be
          changed or tested, and it cannot be made active again. It stays listed under the archived tools.
        </p>
      </ConfirmDialog>
    </>
  )
}
