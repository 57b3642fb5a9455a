import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Fiber, Layer, Metric, Option } from "effect"
import { Agents } from "../../src/agents/Agents.js"
import { CallPlacement } from "../../src/calls/CallPlacement.js"
import { ChannelStore } from "../../src/calls/ChannelStore.js"
import { DoNotCallStore } from "../../src/do-not-call/DoNotCallStore.js"
import { Telephony } from "../../src/calls/Telephony.js"
import { InMemory, PriceListConfig, SecureRandom, Services } from "../../src/index.js"
import * as MemoryBlobStore from "../../src/memory/MemoryBlobStore.js"
import { RecordedCalls } from "../../src/memory/MemoryTelephony.js"
import { PhoneNumbers } from "../../src/phone-numbers/PhoneNumbers.js"
import { PhoneNumberId } from "../../src/phone-numbers/PhoneNumber.js"
import { callsEnded } from "../../src/observability/OperationalEvents.js"
import { RunStore } from "../../src/runs/RunStore.js"
import * as Fixtures from "../../testing/Fixtures.js"
import { engine, organizationWithAgent, setNow } from "./Engine.js"

// 12:00 in Warsaw (CET, UTC+1).
const warsawNoon = "2026-02-10T11:00:00.000Z"
// 22:30 in Warsaw: outside calling hours until 08:00 the next morning (07:00Z).
const warsawNight = "2026-02-10T21:30:00.000Z"

describe("CallPlacement", () => {
  it.effect("queues a run with the normalised number in initial_context and hands it to telephony", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization, agent } = yield* organizationWithAgent()
      const calls = yield* CallPlacement
      const run = yield* calls.place({
        organizationId: organization.id,
        agent: agent.public_id,
        phone_number: "+48 500 100 200",
        initial_context: { first_name: "Ola" }
      })
      expect(run).toMatchObject({
        workflow_id: agent.id,
        mode: "phone",
        status: "queued",
        phone_number: "+48500100200",
        initial_context: { first_name: "Ola", phone_number: "+48500100200" },
        created_at: new Date(warsawNoon)
      })
      const handed = yield* (yield* RecordedCalls).calls
      expect(handed.map((c) => c.run.workflow_run_id)).toEqual([run.workflow_run_id])
      expect(handed[0]?.definition.id).toBe(agent.current_definition_id)
      const held = yield* (yield* ChannelStore).held(organization.id, new Date(warsawNoon))
      expect(held.map((r) => r.id)).toEqual([run.channel_reservation_id])
      // the agent's number addresses the same agent as its public id
      const byNumber = yield* calls.place({
        organizationId: organization.id,
        agent: String(agent.id),
        phone_number: "+48500100201"
      })
      expect(byNumber.workflow_id).toBe(agent.id)
    }).pipe(Effect.provide(engine))
  )

  it.effect("refuses an invalid number and an unknown, foreign or archived agent", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization, agent } = yield* organizationWithAgent()
      const stranger = yield* Fixtures.organization()
      const calls = yield* CallPlacement
      const place = (org: typeof organization.id, agentRef: string, phone_number = "+48500100200") =>
        Effect.flip(calls.place({ organizationId: org, agent: agentRef, phone_number }))
      expect((yield* place(organization.id, agent.public_id, "12345"))._tag).toBe("InvalidPhoneNumber")
      expect((yield* place(organization.id, "agent_00000000000000000000"))._tag).toBe("AgentNotFound")
      expect((yield* place(organization.id, "not-an-id"))._tag).toBe("AgentNotFound")
      expect((yield* place(stranger.id, agent.public_id))._tag).toBe("AgentNotFound")
      yield* (yield* Agents).update(organization.id, agent.public_id, { status: "archived" })
      expect((yield* place(organization.id, agent.public_id))._tag).toBe("AgentArchived")
    }).pipe(Effect.provide(engine))
  )

  it.effect("checks the gates in order: Do not call, then calling hours, then channels", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNight)
      const { organization, agent } = yield* organizationWithAgent({ outbound_channels: 1 })
      const calls = yield* CallPlacement
      // fill the only channel
      yield* (yield* ChannelStore).reserve(
        {
          id: "busy",
          organization_id: organization.id,
          reserved_at: new Date(warsawNight),
          expires_at: new Date("2026-02-12T00:00:00Z"),
          expected_release_at: null
        },
        1,
        new Date(warsawNight)
      )
      yield* (yield* DoNotCallStore).add({
        organization_id: organization.id,
        phone_number: "+48500100200",
        reason: "asked not to be called",
        created_at: new Date(warsawNight)
      })
      const listed = yield* Effect.flip(
        calls.place({
          organizationId: organization.id,
          agent: agent.public_id,
          phone_number: "+48 500-100-200"
        })
      )
      expect(listed._tag).toBe("DoNotCallListed")
      expect(listed.message).toBe("do_not_call: +48500100200 is on the organization's Do not call list")

      const night = yield* Effect.flip(
        calls.place({ organizationId: organization.id, agent: agent.public_id, phone_number: "+48500100201" })
      )
      expect(night).toMatchObject({
        _tag: "OutsideCallingHours",
        retry_at: new Date("2026-02-11T07:00:00.000Z"),
        retry_after_seconds: 9.5 * 3600,
        time_zones: ["Europe/Warsaw"]
      })

      yield* setNow(warsawNoon.replace("2026-02-10", "2026-02-11"))
      const busy = yield* Effect.flip(
        calls.place({ organizationId: organization.id, agent: agent.public_id, phone_number: "+48500100201" })
      )
      expect(busy).toMatchObject({ _tag: "ChannelsBusy", outbound_channels: 1, retry_after_seconds: 30 })
      // nothing was written for refused calls
      expect(
        (yield* (yield* RunStore).list(organization.id, agent.id, {}, { page: 1, limit: 50 })).total_count
      ).toBe(0)
    }).pipe(Effect.provide(engine))
  )

  it.effect("accepts exactly as many simultaneous calls as there are channels", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization, agent } = yield* organizationWithAgent({ outbound_channels: 10 })
      const calls = yield* CallPlacement
      const results = yield* Effect.all(
        Array.from({ length: 1000 }, (_, i) =>
          Effect.either(
            calls.place({
              organizationId: organization.id,
              agent: agent.public_id,
              phone_number: `+48500${String(100000 + i).padStart(6, "0")}`
            })
          )
        ),
        { concurrency: "unbounded" }
      )
      const accepted = results.filter(Either.isRight)
      expect(accepted).toHaveLength(10)
      const refused = results.filter(Either.isLeft).map((r) => r.left)
      expect(refused).toHaveLength(990)
      expect(refused.every((e) => e._tag === "ChannelsBusy")).toBe(true)
      expect(
        (yield* (yield* RunStore).list(organization.id, agent.id, {}, { page: 1, limit: 50 })).total_count
      ).toBe(10)
      // a freed channel is usable again
      yield* (yield* ChannelStore).release(organization.id, accepted[0]!.right.channel_reservation_id!)
      const again = yield* calls.place({
        organizationId: organization.id,
        agent: agent.public_id,
        phone_number: "+48500200300"
      })
      expect(again.status).toBe("queued")
    }).pipe(Effect.provide(engine))
  )

  it.effect("marks the run failed and frees the channel when telephony refuses the call", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization, agent } = yield* organizationWithAgent({ outbound_channels: 1 })
      yield* (yield* RecordedCalls).setAvailable(false)
      const calls = yield* CallPlacement
      const endedFailed = Effect.map(
        Metric.value(Metric.tagged(callsEnded, "status", "failed")),
        (state) => state.count
      )
      const before = yield* endedFailed
      const error = yield* Effect.flip(
        calls.place({ organizationId: organization.id, agent: agent.public_id, phone_number: "+48500100200" })
      )
      expect(error._tag).toBe("TelephonyUnavailable")
      // an end for the operator too: counted (and logged) once
      expect(yield* endedFailed).toBe(before + 1)
      const runs = yield* (yield* RunStore).list(organization.id, agent.id, {}, { page: 1, limit: 50 })
      expect(runs.items.map((r) => r.status)).toEqual(["failed"])
      expect(yield* (yield* ChannelStore).held(organization.id, new Date(warsawNoon))).toEqual([])
    }).pipe(Effect.provide(engine))
  )

  it.effect("hands telephony the greeting and prompt with initial_context filled in", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization, agent } = yield* organizationWithAgent()
      yield* (yield* CallPlacement).place({
        organizationId: organization.id,
        agent: agent.public_id,
        phone_number: "+48500100200",
        initial_context: { first_name: "Ola" }
      })
      const [call] = yield* (yield* RecordedCalls).calls
      expect(call?.first_message).toBe("Hello Ola!")
      expect(call?.definition.workflow_definition.first_message).toBe("Hello {{initial_context.first_name}}!")
    }).pipe(Effect.provide(engine))
  )

  it.effect(
    "gives the channel back and fails the run when the request is interrupted during the hand-off",
    () =>
      Effect.gen(function* () {
        yield* setNow(warsawNoon)
        const { organization, agent } = yield* organizationWithAgent({ outbound_channels: 1 })
        const fiber = yield* Effect.fork(
          (yield* CallPlacement).place({
            organizationId: organization.id,
            agent: agent.public_id,
            phone_number: "+48500100200"
          })
        )
        // the telephony below never answers: wait until the run exists, then interrupt the request
        const runs = yield* RunStore
        while ((yield* runs.list(organization.id, agent.id, {}, { page: 1, limit: 1 })).total_count === 0) {
          yield* Effect.yieldNow()
        }
        yield* Fiber.interrupt(fiber)
        expect(yield* (yield* ChannelStore).held(organization.id, new Date(warsawNoon))).toEqual([])
        const listed = yield* runs.list(organization.id, agent.id, {}, { page: 1, limit: 1 })
        expect(listed.items.map((r) => r.status)).toEqual(["failed"])
      }).pipe(
        Effect.provide(
          Services.layer.pipe(
            Layer.provideMerge(
              Layer.mergeAll(
                InMemory.layerStores,
                MemoryBlobStore.layer,
                Layer.succeed(Telephony, { placeCall: () => Effect.never }),
                SecureRandom.layerWebCrypto,
                PriceListConfig.layerDefault
              )
            )
          )
        )
      )
  )

  it.effect("calls from one of the organization's own numbers only", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization, agent } = yield* organizationWithAgent({ balance: 10_000 })
      const numbers = yield* PhoneNumbers
      const added = yield* numbers.addToInventory({ number: "+48 22 123 45 67", number_type: "landline" })
      const calls = yield* CallPlacement
      const notYours = yield* Effect.flip(
        calls.place({
          organizationId: organization.id,
          agent: agent.public_id,
          phone_number: "+48500100200",
          from_phone_number_id: added.id
        })
      )
      expect(notYours._tag).toBe("PhoneNumberNotFound")
      yield* numbers.order(organization.id, { number_type: "landline", phone_number_id: added.id })
      yield* calls.place({
        organizationId: organization.id,
        agent: agent.public_id,
        phone_number: "+48500100200",
        from_phone_number_id: added.id
      })
      const handed = yield* (yield* RecordedCalls).calls
      expect(handed.map((c) => c.from_phone_number)).toEqual(["+48221234567"])
      const missing = yield* Effect.flip(
        calls.place({
          organizationId: organization.id,
          agent: agent.public_id,
          phone_number: "+48500100200",
          from_phone_number_id: PhoneNumberId.make(999)
        })
      )
      expect(missing._tag).toBe("PhoneNumberNotFound")
      expect(
        Option.isSome(yield* (yield* RunStore).find(organization.id, handed[0]!.run.workflow_run_id))
      ).toBe(true)
    }).pipe(Effect.provide(engine))
  )
})
