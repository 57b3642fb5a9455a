// A service test: the whole engine runs in memory (InMemory.layer), and Effect's TestClock sets "now".
import { describe, expect, it } from "@effect/vitest"
import {
  Agents,
  CallPlacement,
  CallScript,
  InMemory,
  Money,
  Organization,
  OrganizationStore
} from "@voice-agent-platform/core"
import { Effect, Schema, TestClock } from "effect"

describe("placing a call with the in-memory engine", () => {
  it.effect("refuses a night call to Warsaw with the next morning as retry time", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(new Date("2026-03-10T22:00:00Z").getTime()) // 23:00 in Warsaw
      const organization = yield* (yield* OrganizationStore.OrganizationStore).insert(
        {
          name: "Example",
          outbound_channels: Organization.defaultOutboundChannels,
          recording_retention_days: null,
          balance: Money.MinorUnits.make(0)
        },
        new Date()
      )
      const { agent } = yield* (yield* Agents.Agents).createFromScript(
        organization.id,
        Schema.decodeUnknownSync(CallScript.CallScriptRequest)({ agent: { greeting: "Hello!" } })
      )
      const refusal = yield* Effect.flip(
        (yield* CallPlacement.CallPlacement).place({
          organizationId: organization.id,
          agent: agent.public_id,
          phone_number: "+48 500 000 486"
        })
      )
      expect(refusal).toMatchObject({
        _tag: "OutsideCallingHours",
        retry_at: new Date("2026-03-11T07:00:00Z"),
        retry_after_seconds: 9 * 3600
      })
    }).pipe(Effect.provide(InMemory.layer))
  )
})
