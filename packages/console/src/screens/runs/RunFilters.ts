import { oneOf, pageOf } from "../../routing/QueryState.js"

/** The statuses a run can have, in the order of its life. */
export const runStatuses = [
  "initialized",
  "queued",
  "ringing",
  "in_progress",
  "completed",
  "busy",
  "no_answer",
  "failed",
  "canceled"
] as const

/** How a run was held. */
export const runModes = ["phone", "webrtc", "smallwebrtc", "chat"] as const

/** The statuses of a run that has not ended: its transcript and recording are saved when it ends. */
export const liveStatuses: ReadonlyArray<string> = ["initialized", "queued", "ringing", "in_progress"]

/** Runs shown on a page of the list. */
export const runsPerPage = 20

const dayPattern = /^\d{4}-\d{2}-\d{2}$/

/** A calendar day `YYYY-MM-DD` that exists, else undefined (a hand-edited address is ignored). */
export const dayOf = (text: string | null): string | undefined => {
  if (text === null || !dayPattern.test(text)) return undefined
  const date = new Date(`${text}T00:00:00.000Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text ? text : undefined
}

/** The first instant of the day after `day` (UTC), as the API takes instants. */
const dayAfter = (day: string): string => {
  const date = new Date(`${day}T00:00:00.000Z`)
  date.setUTCDate(date.getUTCDate() + 1)
  return date.toISOString()
}

/** A free-text filter: trimmed, at most `max` characters, else undefined. */
const textOf = (text: string | null, max: number): string | undefined => {
  const trimmed = (text ?? "").trim()
  return trimmed === "" || trimmed.length > max ? undefined : trimmed
}

/**
 * The runs list's request, read from the address's query: `status`, `mode`, `agent_id`, `phone_number`,
 * `disposition` as the API names them, `from` and `to` as calendar days in UTC, both included (`to` becomes
 * `created_before` the next day's first instant), and `page`. A value that could not be one is left out.
 */
export const runsRequestOf = (query: URLSearchParams) => {
  const from = dayOf(query.get("from"))
  const to = dayOf(query.get("to"))
  return {
    page: pageOf(query),
    limit: runsPerPage,
    status: oneOf(query, "status", runStatuses),
    mode: oneOf(query, "mode", runModes),
    agent_id: textOf(query.get("agent_id"), 100),
    phone_number: textOf(query.get("phone_number"), 40),
    disposition: textOf(query.get("disposition"), 100),
    created_after: from === undefined ? undefined : `${from}T00:00:00.000Z`,
    created_before: to === undefined ? undefined : dayAfter(to)
  }
}
