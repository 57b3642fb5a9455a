import { useState } from "preact/hooks"
import type { Schema } from "../../api/Client.js"
import { ConfirmDialog } from "../../components/ConfirmDialog.js"
import { ErrorNotice } from "../../components/Feedback.js"
import { useAction } from "../../data/useAction.js"
import { api } from "../../session/Session.js"
import { formatCount } from "../../text/Formats.js"
import { type CampaignAction, actionsFor } from "./CampaignRules.js"

const labels: Readonly<Record<CampaignAction, string>> = {
  start: "Start the campaign",
  pause: "Pause",
  resume: "Resume",
  cancel: "Cancel the campaign"
}

/**
 * The buttons of the actions the campaign's status allows (start, pause, resume, cancel); cancelling
 * asks first, saying what happens to the contacts not called yet. `onChanged` reads the campaign again.
 */
export const CampaignControls = ({
  campaign,
  onChanged
}: {
  readonly campaign: Schema<"Campaign">
  readonly onChanged: () => void
}) => {
  const action = useAction()
  const [confirming, setConfirming] = useState(false)
  const path = { campaign_id: campaign.campaign_id }
  const perform = (what: CampaignAction) =>
    action.run(async () => {
      if (what === "start") await api.post("/api/v1/campaigns/{campaign_id}/start", { path })
      if (what === "pause") await api.post("/api/v1/campaigns/{campaign_id}/pause", { path })
      if (what === "resume") await api.post("/api/v1/campaigns/{campaign_id}/resume", { path })
      if (what === "cancel") await api.post("/api/v1/campaigns/{campaign_id}/cancel", { path })
      setConfirming(false)
      onChanged()
    })
  const actions = actionsFor(campaign.status)
  if (actions.length === 0) return null
  return (
    <div class="campaign-controls">
      <div class="row-actions">
        {actions.map((what) => (
          <button
            key={what}
            type="button"
            class={what === "cancel" ? "secondary" : undefined}
            disabled={action.busy}
            onClick={() => (what === "cancel" ? setConfirming(true) : perform(what))}
          >
            {labels[what]}
          </button>
        ))}
      </div>
      {action.error === undefined || confirming ? null : <ErrorNotice error={action.error} />}
      <ConfirmDialog
        open={confirming}
        title={`Cancel ${campaign.name}?`}
        confirmLabel="Yes, cancel it"
        cancelLabel="Keep the campaign"
        busy={action.busy}
        onConfirm={() => perform("cancel")}
        onCancel={() => {
          setConfirming(false)
          action.clear()
        }}
      >
        <p>
          Nothing more is dialled: the {formatCount(campaign.counts.pending)} contacts not called yet are
          skipped, and the {formatCount(campaign.counts.in_progress)} calls in progress finish. A canceled
          campaign cannot be started again.
        </p>
        {action.error === undefined ? null : <ErrorNotice error={action.error} />}
      </ConfirmDialog>
    </div>
  )
}
