import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { Agents } from "../../src/agents/Agents.js"
import { DoNotCallList } from "../../src/do-not-call/DoNotCallList.js"
import { RecordedCalls } from "../../src/memory/MemoryTelephony.js"
import { RunStore } from "../../src/runs/RunStore.js"
import { Triggers } from "../../src/triggers/Triggers.js"
import * as Fixtures from "../../testing/Fixtures.js"
import { engine, organizationWithAgent, setNow } from "./Engine.js"

// 12:00 in Warsaw (CET, UTC+1).
const warsawNoon = "2026-02-10T11:00:00.000Z"
const firstPage = { page: 1, limit: 50 }

describe("Triggers", () => {
  it.effect("creates triggers for the organization's agents, reads and lists them newest first", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization, agent } = yield* organizationWithAgent()
      const stranger = yield* Fixtures.organization()
      const triggers = yield* Triggers
      const first = yield* triggers.create(organization.id, {
        agent: agent.public_id,
        name: "Reminders",
        initial_context: { clinic: "Centrum" }
      })
      expect(first).toEqual({
        trigger_id: expect.stringMatching(/^trg_[A-Za-z0-9]{20}$/),
        organization_id: organization.id,
        agent_id: agent.id,
        name: "Reminders",
        initial_context: { clinic: "Centrum" },
        status: "active",
        created_at: new Date(warsawNoon)
      })
      yield* setNow("2026-02-10T11:00:01.000Z")
      const second = yield* triggers.create(organization.id, { agent: String(agent.id), name: "No context" })
      expect(second).toMatchObject({ agent_id: agent.id, initial_context: {} })
      expect(second.trigger_id).not.toBe(first.trigger_id)

      expect(yield* triggers.get(organization.id, first.trigger_id)).toEqual(first)
      const listed = yield* triggers.list(organization.id, {}, firstPage)
      expect(listed.items.map((t) => t.trigger_id)).toEqual([second.trigger_id, first.trigger_id])

      // another organization's agent and trigger do not exist for it
      const foreignAgent = yield* Effect.flip(
        triggers.create(stranger.id, { agent: agent.public_id, name: "Stolen" })
      )
      expect(foreignAgent._tag).toBe("AgentNotFound")
      expect((yield* Effect.flip(triggers.get(stranger.id, first.trigger_id)))._tag).toBe("TriggerNotFound")
      expect((yield* triggers.list(stranger.id, {}, firstPage)).total_count).toBe(0)
      expect((yield* Effect.flip(triggers.get(organization.id, "not-a-trigger")))._tag).toBe(
        "TriggerNotFound"
      )
      expect(
        (yield* Effect.flip(
          triggers.create(organization.id, { agent: "agent_00000000000000000000", name: "x" })
        ))._tag
      ).toBe("AgentNotFound")
    }).pipe(Effect.provide(engine))
  )

  it.effect("places a call with the trigger's agent, the request's context laid over the trigger's", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization, agent } = yield* organizationWithAgent()
      const triggers = yield* Triggers
      const trigger = yield* triggers.create(organization.id, {
        agent: agent.public_id,
        name: "Reminders",
        initial_context: { clinic: "Centrum", lang: "pl", phone_number: "+48000000000" }
      })
      const run = yield* triggers.placeCall(organization.id, trigger.trigger_id, {
        phone_number: "+48 500 100 200",
        initial_context: { first_name: "Ola", lang: "en" }
      })
      expect(run).toMatchObject({
        workflow_id: agent.id,
        status: "queued",
        trigger_id: trigger.trigger_id,
        phone_number: "+48500100200",
        initial_context: { clinic: "Centrum", lang: "en", first_name: "Ola", phone_number: "+48500100200" }
      })
      const handed = yield* (yield* RecordedCalls).calls
      expect(handed.map((c) => c.run.workflow_run_id)).toEqual([run.workflow_run_id])
      const stored = Option.getOrThrow(yield* (yield* RunStore).find(organization.id, run.workflow_run_id))
      expect(stored.trigger_id).toBe(trigger.trigger_id)
      // the trigger's own context is unchanged by the call
      expect((yield* triggers.get(organization.id, trigger.trigger_id)).initial_context).toEqual({
        clinic: "Centrum",
        lang: "pl",
        phone_number: "+48000000000"
      })
      const bare = yield* triggers.placeCall(organization.id, trigger.trigger_id, {
        phone_number: "+48500100201"
      })
      expect(bare.initial_context).toEqual({ clinic: "Centrum", lang: "pl", phone_number: "+48500100201" })
    }).pipe(Effect.provide(engine))
  )

  it.effect("an archived trigger places no calls; the call's own checks and gates still apply", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization, agent } = yield* organizationWithAgent()
      const stranger = yield* Fixtures.organization()
      const triggers = yield* Triggers
      const trigger = yield* triggers.create(organization.id, { agent: agent.public_id, name: "T" })
      const call = (org = organization.id, id: string = trigger.trigger_id, phone_number = "+48500100200") =>
        Effect.flip(triggers.placeCall(org, id, { phone_number }))

      // the number is checked first, as for every call
      expect((yield* call(organization.id, "trg_00000000000000000000", "12345"))._tag).toBe(
        "InvalidPhoneNumber"
      )
      expect((yield* call(organization.id, "trg_00000000000000000000"))._tag).toBe("TriggerNotFound")
      expect((yield* call(stranger.id))._tag).toBe("TriggerNotFound")

      yield* (yield* DoNotCallList).add(organization.id, { phone_number: "+48500100200" })
      expect((yield* call())._tag).toBe("DoNotCallListed")

      yield* (yield* Agents).update(organization.id, agent.public_id, { status: "archived" })
      expect((yield* call(organization.id, trigger.trigger_id, "+48500100201"))._tag).toBe("AgentArchived")

      const archived = yield* triggers.archive(organization.id, trigger.trigger_id)
      expect(archived).toEqual({ ...trigger, status: "archived" })
      expect(yield* triggers.archive(organization.id, trigger.trigger_id)).toEqual(archived)
      expect((yield* Effect.flip(triggers.archive(stranger.id, trigger.trigger_id)))._tag).toBe(
        "TriggerNotFound"
      )
      const refused = yield* call(organization.id, trigger.trigger_id, "+48500100201")
      expect(refused._tag).toBe("TriggerArchived")
      expect(refused.message).toBe(
        `trigger_archived: trigger ${trigger.trigger_id} is archived and places no calls; create a new trigger`
      )
      expect((yield* triggers.list(organization.id, { status: "archived" }, firstPage)).total_count).toBe(1)
      expect((yield* (yield* RecordedCalls).calls).length).toBe(0)
    }).pipe(Effect.provide(engine))
  )
})
