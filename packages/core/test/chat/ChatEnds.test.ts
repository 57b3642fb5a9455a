import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { endStatusOf, talkSeconds } from "../../src/chat/ChatEnds.js"
import type { Run, RunStatus } from "../../src/runs/Run.js"
import { at, epoch, said } from "../conversation/AgentFixtures.js"

/** A chat run in a status: the rule reads only its status. */
const chat = (status: RunStatus) => ({ status }) as Run

describe("ChatEnds.talkSeconds", () => {
  it("counts from the first message said to the end, in seconds", () => {
    const kept = [said("user", "Hi", 10), said("assistant", "Hello", 12.5)]
    expect(talkSeconds(kept, at(70).getTime())).toBe(60)
    expect(talkSeconds(kept, at(10.25).getTime())).toBe(0.25)
  })

  it("starts at the earliest message, whatever the order they were kept in", () => {
    expect(talkSeconds([said("assistant", "b", 30), said("user", "a", 20)], at(50).getTime())).toBe(30)
  })

  it("is 0 when nothing was said, or when the end is before the first message", () => {
    expect(talkSeconds([], at(100).getTime())).toBe(0)
    expect(talkSeconds([said("user", "Hi", 10)], at(5).getTime())).toBe(0)
  })

  it.prop(
    "never negative, indifferent to order, and growing with the end",
    [
      FastCheck.array(FastCheck.nat(100_000), { minLength: 1, maxLength: 8 }),
      FastCheck.nat(200_000),
      FastCheck.nat(1_000)
    ],
    ([times, until, later]) => {
      const kept = times.map((ms) => ({
        role: "user" as const,
        text: "x",
        timestamp: new Date(epoch.getTime() + ms)
      }))
      const end = epoch.getTime() + until
      const seconds = talkSeconds(kept, end)
      expect(seconds).toBe(Math.max(0, (until - Math.min(...times)) / 1000))
      expect(talkSeconds([...kept].reverse(), end)).toBe(seconds)
      expect(talkSeconds(kept, end + later)).toBeGreaterThanOrEqual(seconds)
    }
  )
})

describe("ChatEnds.endStatusOf", () => {
  it("a chat that never started ends canceled, any other completed", () => {
    expect(endStatusOf(chat("initialized"))).toBe("canceled")
    expect(endStatusOf(chat("in_progress"))).toBe("completed")
    expect(endStatusOf(chat("queued"))).toBe("completed")
  })
})
