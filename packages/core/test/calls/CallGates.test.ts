import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { defaultWorkflowConfigurations } from "../../src/agents/Agent.js"
import * as CallingHours from "../../src/calling-hours/CallingHours.js"
import * as TimeZoneCandidates from "../../src/calling-hours/TimeZoneCandidates.js"
import * as CallGates from "../../src/calls/CallGates.js"
import { beforeAnswerSeconds, reclaimGraceSeconds } from "../../src/calls/OutboundChannels.js"
import { OrganizationId } from "../../src/organizations/Organization.js"

const warsaw = "+48500100200"
const numbers = FastCheck.constantFrom(
  warsaw,
  "+14155550123",
  "+61291234567",
  "+442071234567",
  "+81312345678"
)
const instants = FastCheck.date({
  min: new Date("2020-01-01T00:00:00Z"),
  max: new Date("2035-12-31T00:00:00Z")
})

describe("CallGates.beforeChannel", () => {
  it("refuses a listed number before it looks at the hour, and makes the others wait for their window", () => {
    const night = new Date("2026-11-24T03:00:00Z") // 04:00 in Warsaw
    expect(CallGates.beforeChannel(warsaw, true, night)).toEqual({ _tag: "DoNotCall" })
    expect(CallGates.beforeChannel(warsaw, false, night)).toEqual({
      _tag: "OutsideCallingHours",
      retryAt: new Date("2026-11-24T07:00:00Z"),
      retryAfterSeconds: 4 * 3600,
      zones: ["Europe/Warsaw"]
    })
    const noon = new Date("2026-11-24T11:00:00Z")
    expect(CallGates.beforeChannel(warsaw, false, noon)).toEqual({ _tag: "Open" })
    expect(CallGates.beforeChannel(warsaw, true, noon)).toEqual({ _tag: "DoNotCall" })
  })

  it.prop("Do not call comes first, at any hour", [numbers, instants], ([number, now]) => {
    expect(CallGates.beforeChannel(number, true, now)._tag).toBe("DoNotCall")
  })

  it.prop("an unlisted number waits exactly as calling hours say", [numbers, instants], ([number, now]) => {
    const zones = TimeZoneCandidates.forNumber(number)
    const hours = CallingHours.check(zones, now)
    const gate = CallGates.beforeChannel(number, false, now)
    if (hours._tag === "Allowed") expect(gate).toEqual({ _tag: "Open" })
    else expect(gate).toEqual({ ...hours, zones })
  })
})

describe("CallGates.channelHold", () => {
  it.prop(
    "holds the channel for the time before the answer, the agent's longest call and the grace",
    [FastCheck.integer({ min: 1, max: 7200 }), instants],
    ([maxSeconds, now]) => {
      const agent = {
        workflow_configurations: { ...defaultWorkflowConfigurations, max_call_duration_seconds: maxSeconds }
      }
      const hold = CallGates.channelHold(OrganizationId.make(7), "r-1", agent, now)
      expect(hold).toEqual({
        id: "r-1",
        organization_id: 7,
        reserved_at: now,
        expires_at: new Date(now.getTime() + (beforeAnswerSeconds + maxSeconds + reclaimGraceSeconds) * 1000),
        expected_release_at: null
      })
    }
  )
})
