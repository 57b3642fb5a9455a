import { describe, expect, it } from "@effect/vitest"
import {
  acceptsContacts,
  actionsFor,
  concurrencyFrom,
  isLive,
  progressOf,
  retryFrom
} from "../../src/screens/campaigns/CampaignRules.js"
import { contextFrom } from "../../src/screens/triggers/TriggerContext.js"

describe("the campaign screens' rules", () => {
  it("offers the actions the API's lifecycle allows from each status", () => {
    expect(actionsFor("created")).toEqual(["start", "cancel"])
    expect(actionsFor("running")).toEqual(["pause", "cancel"])
    expect(actionsFor("paused")).toEqual(["resume", "cancel"])
    expect(actionsFor("completed")).toEqual([])
    expect(actionsFor("canceled")).toEqual([])
  })

  it("takes contacts only while nothing dials them, and refreshes only a running campaign", () => {
    expect(
      ["created", "running", "paused", "completed", "canceled"].filter((s) => acceptsContacts(s as never))
    ).toEqual(["created", "paused"])
    expect(
      ["created", "running", "paused", "completed", "canceled"].filter((s) => isLive(s as never))
    ).toEqual(["running"])
  })

  it("counts completed, failed and skipped contacts as done, in whole percents rounded down", () => {
    const counts = { total: 3, pending: 1, in_progress: 0, completed: 1, failed: 0, skipped: 1 }
    expect(progressOf(counts)).toEqual({ done: 2, total: 3, percent: 66 })
    expect(progressOf({ ...counts, total: 0, completed: 0, skipped: 0, pending: 0 })).toEqual({
      done: 0,
      total: 0,
      percent: 0
    })
  })

  it("reads the retry policy from the form: 1 to 10 attempts, 0 to a week of minutes between them", () => {
    expect(retryFrom({ attempts: "2", delayMinutes: "5", on: ["busy", "no_answer"] })).toEqual({
      policy: { max_attempts: 2, retry_delay_seconds: 300, retry_on: ["busy", "no_answer"] }
    })
    expect(retryFrom({ attempts: " 10 ", delayMinutes: "0", on: [] })).toEqual({
      policy: { max_attempts: 10, retry_delay_seconds: 0, retry_on: [] }
    })
    for (const attempts of ["0", "11", "1.5", "", "two", "-1"])
      expect(retryFrom({ attempts, delayMinutes: "60", on: [] })).toEqual({
        error: "Attempts per contact must be a whole number from 1 to 10."
      })
    for (const delayMinutes of ["10081", "", "1e3", "-5"])
      expect(retryFrom({ attempts: "1", delayMinutes, on: [] })).toMatchObject({
        error: /Minutes between attempts/
      })
    expect(retryFrom({ attempts: "1", delayMinutes: "10080", on: [] })).toMatchObject({
      policy: { retry_delay_seconds: 604_800 }
    })
  })

  it("leaves the most calls at once to the API when empty, and refuses anything but a whole number from 1", () => {
    expect(concurrencyFrom("  ")).toEqual({ value: undefined })
    expect(concurrencyFrom("3")).toEqual({ value: 3 })
    for (const text of ["0", "2.5", "x", "-1"])
      expect(concurrencyFrom(text)).toMatchObject({ error: /whole number/ })
  })

  it("reads a trigger's context as a JSON object, or nothing when empty", () => {
    expect(contextFrom("")).toEqual({ context: undefined })
    expect(contextFrom(' {"source": "crm"} ')).toEqual({ context: { source: "crm" } })
    expect(contextFrom("[1]")).toMatchObject({ error: /JSON object/ })
    expect(contextFrom("null")).toMatchObject({ error: /JSON object/ })
    expect(contextFrom("{source}")).toMatchObject({ error: /must be JSON/ })
  })
})
