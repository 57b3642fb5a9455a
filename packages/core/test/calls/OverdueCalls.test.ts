import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as OverdueCalls from "../../src/calls/OverdueCalls.js"
import { reclaimGraceSeconds } from "../../src/calls/OutboundChannels.js"
import type { RunStatus } from "../../src/runs/Run.js"
import { isLive, RunStatus as RunStatusSchema } from "../../src/runs/Run.js"

const createdAt = new Date("2026-05-01T12:00:00Z")
const after = (seconds: number) => new Date(createdAt.getTime() + seconds * 1000)
const run = (status: RunStatus) => ({ status, created_at: createdAt })

describe("OverdueCalls", () => {
  it("reclaims a live call at created_at + max duration + grace, not a moment before", () => {
    expect(reclaimGraceSeconds).toBe(60)
    expect(OverdueCalls.reclaimAt(createdAt, 600)).toEqual(after(660))
    for (const status of ["queued", "ringing", "in_progress"] as const) {
      expect(OverdueCalls.isOverdue(run(status), 600, after(659.999))).toBe(false)
      expect(OverdueCalls.isOverdue(run(status), 600, after(660))).toBe(true)
    }
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
      expect(overdue).toBe(isLive(status) && elapsed >= max + reclaimGraceSeconds)
      // every overdue call is among the store's candidates
      if (overdue) {
        expect(createdAt.getTime()).toBeLessThanOrEqual(
          OverdueCalls.candidatesCreatedBy(after(elapsed)).getTime()
        )
      }
    }
  )
})
