import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as CallProgress from "../../src/calls/CallProgress.js"
import type { RunStatus } from "../../src/runs/Run.js"
import { finalStatuses, isFinal } from "../../src/runs/Run.js"

const statuses: ReadonlyArray<RunStatus> = [
  "initialized",
  "queued",
  "ringing",
  "in_progress",
  ...finalStatuses
]
const status = FastCheck.constantFrom(...statuses)
const target = FastCheck.option(status, { nil: null })

describe("CallProgress.decide", () => {
  it("moves a call forward, skipping steps when a call skips them", () => {
    expect(CallProgress.decide("queued", "ringing")).toEqual({ _tag: "Apply", status: "ringing" })
    expect(CallProgress.decide("ringing", "in_progress")).toEqual({ _tag: "Apply", status: "in_progress" })
    expect(CallProgress.decide("queued", "in_progress")).toEqual({ _tag: "Apply", status: "in_progress" })
    expect(CallProgress.decide("queued", "busy")).toEqual({ _tag: "Apply", status: "busy" })
    expect(CallProgress.decide("in_progress", "completed")).toEqual({ _tag: "Apply", status: "completed" })
    expect(CallProgress.decide("initialized", "in_progress")).toEqual({
      _tag: "Apply",
      status: "in_progress"
    })
  })

  it("ignores a status report that repeats or goes back", () => {
    expect(CallProgress.decide("ringing", "ringing")).toEqual({ _tag: "Stale" })
    expect(CallProgress.decide("in_progress", "ringing")).toEqual({ _tag: "Stale" })
    expect(CallProgress.decide("in_progress", "in_progress")).toEqual({ _tag: "Stale" })
  })

  it("applies content to a live call without moving it", () => {
    expect(CallProgress.decide("queued", null)).toEqual({ _tag: "Apply", status: "queued" })
    expect(CallProgress.decide("in_progress", null)).toEqual({ _tag: "Apply", status: "in_progress" })
  })

  it("refuses everything after the end, another end included", () => {
    for (const ended of finalStatuses) {
      expect(CallProgress.decide(ended, null)).toEqual({ _tag: "AfterEnd" })
      expect(CallProgress.decide(ended, "ringing")).toEqual({ _tag: "AfterEnd" })
      expect(CallProgress.decide(ended, "completed")).toEqual({ _tag: "AfterEnd" })
    }
  })

  it.prop("a status never moves back, and an ended call never changes", [status, target], ([current, to]) => {
    const verdict = CallProgress.decide(current, to)
    if (isFinal(current)) expect(verdict._tag).toBe("AfterEnd")
    if (verdict._tag === "Apply") {
      expect(CallProgress.rank(verdict.status)).toBeGreaterThanOrEqual(CallProgress.rank(current))
      expect(verdict.status).toBe(to ?? current)
    }
    if (verdict._tag === "Stale")
      expect(CallProgress.rank(to!)).toBeLessThanOrEqual(CallProgress.rank(current))
  })

  it.prop(
    "any sequence of reports ends in a final status exactly once it is reported",
    [FastCheck.array(target, { maxLength: 12 })],
    ([reports]) => {
      let current: RunStatus = "queued"
      let endedAt: number | null = null
      reports.forEach((to, i) => {
        const verdict = CallProgress.decide(current, to)
        if (verdict._tag === "Apply") current = verdict.status
        if (endedAt === null && to !== null && isFinal(to)) endedAt = i
      })
      expect(isFinal(current)).toBe(endedAt !== null)
      if (endedAt !== null) expect(current).toBe(reports[endedAt])
    }
  )
})
