import { useState } from "preact/hooks"
import { ConfirmDialog } from "../../components/ConfirmDialog.js"
import { ErrorNotice } from "../../components/Feedback.js"
import { useAction } from "../../data/useAction.js"
import { api } from "../../session/Session.js"

/** A pending contact taken out of the campaign (with its number and context), after asking. */
export const RemoveContact = ({
  campaignId,
  contactId,
  phoneNumber,
  onRemoved
}: {
  readonly campaignId: number
  readonly contactId: number
  readonly phoneNumber: string
  readonly onRemoved: () => void
}) => {
  const [asking, setAsking] = useState(false)
  const action = useAction()
  const remove = () =>
    action.run(async () => {
      await api.delete("/api/v1/campaigns/{campaign_id}/contacts/{contact_id}", {
        path: { campaign_id: campaignId, contact_id: contactId }
      })
      setAsking(false)
      onRemoved()
    })
  return (
    <>
      <button
        type="button"
        class="secondary small"
        onClick={() => {
          action.clear()
          setAsking(true)
        }}
      >
        Remove<span class="visually-hidden"> {phoneNumber}</span>
      </button>
      <ConfirmDialog
        open={asking}
        title={`Remove ${phoneNumber} from the campaign?`}
        confirmLabel="Remove the contact"
        cancelLabel="Keep it"
        busy={action.busy}
        onConfirm={remove}
        onCancel={() => setAsking(false)}
      >
        <p>It is not called, and its number and context are erased from the campaign.</p>
        {action.error === undefined ? null : <ErrorNotice error={action.error} />}
      </ConfirmDialog>
    </>
  )
}
