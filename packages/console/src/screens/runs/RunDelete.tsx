import { useState } from "preact/hooks"
import { ConfirmDialog } from "../../components/ConfirmDialog.js"
import { ErrorNotice } from "../../components/Feedback.js"
import { useAction } from "../../data/useAction.js"
import { navigate } from "../../routing/Location.js"
import { api } from "../../session/Session.js"

/**
 * Deletes a run after a confirmation that says it cannot be undone and what goes (the API's erasure: the
 * recording, the transcript, the contact's data, logs and SMS; the cost stays in usage), then goes back to
 * the runs list.
 */
export const RunDelete = ({ agentId, runId }: { readonly agentId: string; readonly runId: number }) => {
  const [asking, setAsking] = useState(false)
  const action = useAction()
  const remove = () =>
    action.run(async () => {
      await api.delete("/api/v1/agents/{agent_id}/conversations/{run_id}", {
        path: { agent_id: agentId, run_id: runId }
      })
      setAsking(false)
      navigate("runs")
    })
  return (
    <>
      <button type="button" class="secondary" onClick={() => setAsking(true)}>
        Delete this run
      </button>
      <ConfirmDialog
        open={asking}
        title={`Delete run ${runId}?`}
        confirmLabel="Delete the run for good"
        busy={action.busy}
        onConfirm={remove}
        onCancel={() => {
          action.clear()
          setAsking(false)
        }}
      >
        <p>
          This is irreversible. The recording and the transcript are erased, and the run loses the contact's
          details (the phone number and context), the gathered data, its logs and the SMS sent. It leaves the
          runs list; its duration and cost stay in the usage.
        </p>
        {action.error === undefined ? null : <ErrorNotice error={action.error} />}
      </ConfirmDialog>
    </>
  )
}
