import { formatCount } from "../../text/Formats.js"
import { type ContactCounts, progressOf } from "./CampaignRules.js"

/** How far a campaign is: a bar and, in words, the contacts done of all and those being called. */
export const CampaignProgress = ({
  name,
  counts
}: {
  readonly name: string
  readonly counts: ContactCounts
}) => {
  const { done, total, percent } = progressOf(counts)
  return (
    <div class="progress-cell">
      <progress max={Math.max(1, total)} value={done} aria-label={`Progress of ${name}`} />
      <span>
        {formatCount(done)} of {formatCount(total)} done ({percent}%)
        {counts.in_progress > 0 ? ` · ${formatCount(counts.in_progress)} in progress` : ""}
      </span>
    </div>
  )
}
