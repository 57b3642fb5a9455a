// What the campaign screens decide without the API: the actions a status allows, how far a campaign is,
// and the retry policy read from the form. Pure functions, tested in `test/screens/CampaignRules.test.ts`.

/** A campaign's status, as the API names it. */
export type CampaignStatus = "created" | "running" | "paused" | "completed" | "canceled"

/** What a person can do to a campaign. */
export type CampaignAction = "start" | "pause" | "resume" | "cancel"

/** The actions each status allows, as the API's lifecycle does (`created → running ⇄ paused → canceled`). */
const allowed: Readonly<Record<CampaignStatus, ReadonlyArray<CampaignAction>>> = {
  created: ["start", "cancel"],
  running: ["pause", "cancel"],
  paused: ["resume", "cancel"],
  completed: [],
  canceled: []
}

/** The actions a campaign in this status allows, in the order their buttons show. */
export const actionsFor = (status: CampaignStatus): ReadonlyArray<CampaignAction> => allowed[status]

/** Whether contacts can be added now: only while nothing dials them. */
export const acceptsContacts = (status: CampaignStatus): boolean =>
  status === "created" || status === "paused"

/** Whether the campaign's figures change by themselves (the screen refreshes them while it runs). */
export const isLive = (status: CampaignStatus): boolean => status === "running"

/** Contacts per status, as the API counts them. */
export interface ContactCounts {
  readonly total: number
  readonly pending: number
  readonly in_progress: number
  readonly completed: number
  readonly failed: number
  readonly skipped: number
}

/** How far a campaign is: the contacts that reached an end (completed, failed or skipped) of all. */
export const progressOf = (counts: ContactCounts) => {
  const done = counts.completed + counts.failed + counts.skipped
  return {
    done,
    total: counts.total,
    percent: counts.total === 0 ? 0 : Math.floor((done * 100) / counts.total)
  }
}

/** The outcomes a contact's call may be retried after. */
export const retryOutcomes = ["busy", "no_answer", "failed"] as const
export type RetryOutcome = (typeof retryOutcomes)[number]

/** The retry policy as the create-campaign request takes it. */
export interface RetryPolicy {
  readonly max_attempts: number
  readonly retry_delay_seconds: number
  readonly retry_on: ReadonlyArray<RetryOutcome>
}

/** The retry fields as the form holds them (text, as typed). */
export interface RetryForm {
  readonly attempts: string
  readonly delayMinutes: string
  readonly on: ReadonlyArray<RetryOutcome>
}

const wholeNumber = (text: string): number | undefined =>
  /^\s*\d{1,9}\s*$/.test(text) ? Number(text.trim()) : undefined

/**
 * The retry policy the form describes, or what is wrong with it (said as the form's labels say it):
 * 1 to 10 attempts, 0 to 10,080 minutes (a week) between them.
 */
export const retryFrom = (form: RetryForm): { readonly policy: RetryPolicy } | { readonly error: string } => {
  const attempts = wholeNumber(form.attempts)
  if (attempts === undefined || attempts < 1 || attempts > 10)
    return { error: "Attempts per contact must be a whole number from 1 to 10." }
  const minutes = wholeNumber(form.delayMinutes)
  if (minutes === undefined || minutes > 10_080)
    return { error: "Minutes between attempts must be a whole number from 0 to 10080 (a week)." }
  return { policy: { max_attempts: attempts, retry_delay_seconds: minutes * 60, retry_on: [...form.on] } }
}

/** The most calls at once, when given: a whole number from 1; undefined when left empty (the API's default). */
export const concurrencyFrom = (
  text: string
): { readonly value: number | undefined } | { readonly error: string } => {
  if (text.trim() === "") return { value: undefined }
  const value = wholeNumber(text)
  return value === undefined || value < 1
    ? { error: "Most calls at once must be a whole number from 1, or left empty." }
    : { value }
}
