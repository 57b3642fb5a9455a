import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import type { ChannelReservation } from "../../src/calls/OutboundChannels.js"
import * as OutboundChannels from "../../src/calls/OutboundChannels.js"
import { OrganizationId } from "../../src/organizations/Organization.js"

const now = new Date("2026-05-01T12:00:00Z")
const at = (seconds: number) => new Date(now.getTime() + seconds * 1000)

const reservation = (expiresIn: number, expectedIn: number | null = null, id = "r"): ChannelReservation => ({
  id,
  organization_id: OrganizationId.make(1),
  reserved_at: at(-10),
  expires_at: at(expiresIn),
  expected_release_at: expectedIn === null ? null : at(expectedIn)
})

describe("OutboundChannels.decide", () => {
  it("grants while fewer calls than channels are live", () => {
    expect(OutboundChannels.decide([], 1, now)).toEqual({ _tag: "Granted" })
    expect(OutboundChannels.decide([reservation(600)], 2, now)).toEqual({ _tag: "Granted" })
  })

  it("refuses when every channel is held, with 30 s when nobody knows when a call ends", () => {
    expect(OutboundChannels.decide([reservation(600), reservation(900)], 2, now)).toEqual({
      _tag: "Busy",
      retryAfterSeconds: 30
    })
  })

  it("says when the first call is expected to end, rounded up and clamped to 1..300", () => {
    expect(OutboundChannels.decide([reservation(900, 42.2), reservation(900, 80)], 2, now)).toEqual({
      _tag: "Busy",
      retryAfterSeconds: 43
    })
    expect(OutboundChannels.decide([reservation(900, 0.001)], 1, now)).toEqual({
      _tag: "Busy",
      retryAfterSeconds: 1
    })
    expect(OutboundChannels.decide([reservation(9000, 5000)], 1, now)).toEqual({
      _tag: "Busy",
      retryAfterSeconds: 300
    })
  })

  it("retries no later than the first reclaim when nobody knows when a call ends", () => {
    expect(OutboundChannels.decide([reservation(12.5), reservation(900)], 2, now)).toEqual({
      _tag: "Busy",
      retryAfterSeconds: 13
    })
  })

  it("counts a reservation past its reclaim time as free", () => {
    expect(OutboundChannels.decide([reservation(0), reservation(-5)], 1, now)).toEqual({ _tag: "Granted" })
    expect(OutboundChannels.live([reservation(0), reservation(0.001)], now)).toHaveLength(1)
  })

  const reservations = FastCheck.array(
    FastCheck.record({
      expiresIn: FastCheck.integer({ min: -600, max: 4000 }),
      expectedIn: FastCheck.option(FastCheck.integer({ min: -600, max: 4000 }), { nil: null })
    }),
    { maxLength: 30 }
  ).map((rs) => rs.map((r, i) => reservation(r.expiresIn, r.expectedIn, `r${i}`)))

  it.prop(
    "grants exactly when live reservations are fewer than the channels; a refusal retries within 1..300 s",
    [reservations, FastCheck.integer({ min: 1, max: 20 })],
    ([rs, capacity]) => {
      const decision = OutboundChannels.decide(rs, capacity, now)
      const live = rs.filter((r) => r.expires_at > now).length
      expect(decision._tag === "Granted").toBe(live < capacity)
      if (decision._tag === "Busy") {
        expect(decision.retryAfterSeconds).toBeGreaterThanOrEqual(1)
        expect(decision.retryAfterSeconds).toBeLessThanOrEqual(300)
        expect(Number.isInteger(decision.retryAfterSeconds)).toBe(true)
      }
    }
  )
})

describe("OutboundChannels.decideBatch", () => {
  const reservations = (prefix: string, maxLength: number) =>
    FastCheck.array(
      FastCheck.record({
        expiresIn: FastCheck.integer({ min: -600, max: 4000 }),
        expectedIn: FastCheck.option(FastCheck.integer({ min: -600, max: 4000 }), { nil: null })
      }),
      { maxLength }
    ).map((rs) => rs.map((r, i) => reservation(r.expiresIn, r.expectedIn, `${prefix}${i}`)))
  const fresh = reservations("n", 15).map((rs) =>
    rs.map((r) => ({ ...r, expires_at: at(600 + r.id.length) }))
  )

  it.prop(
    "decides a batch as `decide` would, one reservation after the other, stopping at the first refusal",
    [reservations("r", 30), fresh, FastCheck.integer({ min: 1, max: 20 })],
    ([held, batch, capacity]) => {
      let state = [...held]
      let granted = 0
      let retryAfterSeconds: number | null = null
      for (const r of batch) {
        const decision = OutboundChannels.decide(state, capacity, now)
        if (decision._tag === "Busy") {
          retryAfterSeconds = decision.retryAfterSeconds
          break
        }
        state = [...state, r]
        granted++
      }
      expect(OutboundChannels.decideBatch(held, capacity, now, batch)).toEqual({ granted, retryAfterSeconds })
    }
  )
})
