import { Either } from "effect"
import type { CampaignStatus } from "./Campaign.js"
import { CampaignTransitionNotAllowed } from "./CampaignErrors.js"

/** What a user (or the dialer, for `complete`) can do to a campaign. */
export type CampaignAction = "start" | "pause" | "resume" | "cancel" | "complete"

/** `created → running ⇄ paused → completed | canceled`: the states each action may start from. */
export const allowedFrom: Readonly<Record<CampaignAction, ReadonlyArray<CampaignStatus>>> = {
  start: ["created"],
  pause: ["running"],
  resume: ["paused"],
  cancel: ["created", "running", "paused"],
  complete: ["running"]
}

/** Where each action leads. */
export const target: Readonly<Record<CampaignAction, CampaignStatus>> = {
  start: "running",
  pause: "paused",
  resume: "running",
  cancel: "canceled",
  complete: "completed"
}

/** The status after `action`, or why the action is not allowed from `current` (409 at the API). */
export const transition = (
  current: CampaignStatus,
  action: CampaignAction
): Either.Either<CampaignStatus, CampaignTransitionNotAllowed> =>
  allowedFrom[action].includes(current)
    ? Either.right(target[action])
    : Either.left(new CampaignTransitionNotAllowed({ action, status: current }))

/** Contacts can be added (or removed) only while nothing dials them: `created` or `paused`. */
export const acceptsContacts = (status: CampaignStatus): boolean =>
  status === "created" || status === "paused"

/** A campaign that will never dial again. */
export const isFinal = (status: CampaignStatus): boolean => status === "completed" || status === "canceled"
