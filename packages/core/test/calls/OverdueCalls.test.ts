import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as OverdueCalls from "../../src/calls/OverdueCalls.js"
import { beforeAnswerSeconds, reclaimGraceSeconds } from "../../src/calls/OutboundChannels.js"
import type { RunStatus } from "../../src/runs/Run.js"
import { isLive, RunStatus as RunStatusSchema } from "../../src/runs/Run.js"

const createdAt = new Date("2026-05-01T12:00:00Z")
const after = (seconds: number) => new Date(createdAt.getTime() + seconds * 1000)
const run = (status: RunStatus) => ({ status, created_at: createdAt })

describe("OverdueCalls", () => {
  it("reclaims a live call at created_at + ring time + max duration + grace, not a moment before", () => {
    expect(reclaimGraceSeconds).toBe(60)
    // 60 s of ringing (the dial's Timeout) and as long for the carrier's queue, before the answer
    expect(beforeAnswerSeconds).toBe(120)
    expect(OverdueCalls.reclaimAt(createdAt, 600)).toEqual(after(780))
    for (const status of ["queued", "ringing", "in_progress"] as const) {
      expect(OverdueCalls.isOverdue(run(status), 600, after(779.999))).toBe(false)
      expect(OverdueCalls.isOverdue(run(status), 600, after(780))).toBe(true)
    }
  })

  it("does not reclaim a call that rang its full ring time and then talked its maximum duration", () => {
    // answered after 60 s of ringing, hung up by the carrier's TimeLimit 600 s later: still live until then
    expect(OverdueCalls.isOverdue(run("in_progress"), 600, after(60 + 600))).toBe(false)
  })

  it("leaves ended calls and record-only runs alone", () => {
    for (const status of ["initialized", "completed", "busy", "no_answer", "failed", "canceled"] as const) {
      expect(OverdueCalls.isOverdue(run(status), 10, after(100_000))).toBe(false)
    }
  })

  it.prop(
    "a call is overdue exactly when live and past max duration + grace",
    [
      FastCheck.constantFrom(...RunStatusSchema.literals),
      FastCheck.integer({ min: 10, max: 4 * 60 * 60 }),
      FastCheck.integer({ min: 0, max: 6 * 60 * 60 })
    ],
    ([status, max, elapsed]) => {
      const overdue = OverdueCalls.isOverdue(run(status), max, after(elapsed))
      expect(overdue).toBe(isLive(status) && elapsed >= beforeAnswerSeconds + max + reclaimGraceSeconds)
      // every overdue call is among the store's candidates
      if (overdue) {
        expect(createdAt.getTime()).toBeLessThanOrEqual(
          OverdueCalls.candidatesCreatedBy(after(elapsed)).getTime()
        )
      }
    }
  )
})
