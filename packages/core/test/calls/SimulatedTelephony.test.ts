import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Either, Layer, Option, Schema, TestClock } from "effect"
import { Agents } from "../../src/agents/Agents.js"
import { CallScriptRequest } from "../../src/agents/CallScript.js"
import { CallPlacement } from "../../src/calls/CallPlacement.js"
import { ChannelStore } from "../../src/calls/ChannelStore.js"
import * as RuntimeTools from "../../src/calls/RuntimeTools.js"
import * as SimulatedCall from "../../src/calls/SimulatedCall.js"
import * as SimulatedTelephony from "../../src/calls/SimulatedTelephony.js"
import * as SimulationConfig from "../../src/calls/SimulationConfig.js"
import { Telephony } from "../../src/calls/Telephony.js"
import * as WavFile from "../../src/calls/WavFile.js"
import { BlobStore } from "../../src/files/BlobStore.js"
import { InMemory } from "../../src/index.js"
import { RecordedCalls } from "../../src/memory/MemoryTelephony.js"
import type { OrganizationId } from "../../src/organizations/Organization.js"
import type { Run, RunStatus } from "../../src/runs/Run.js"
import type { RunId } from "../../src/runs/RunId.js"
import { Runs } from "../../src/runs/Runs.js"
import { RunStore } from "../../src/runs/RunStore.js"
import type { Tool } from "../../src/tools/Tool.js"
import * as TranscriptFile from "../../src/transcripts/TranscriptFile.js"
import * as TranscriptTurns from "../../src/transcripts/TranscriptTurns.js"
import { UsageStore } from "../../src/usage/UsageStore.js"
import * as Fixtures from "../../testing/Fixtures.js"
import { setNow } from "../services/Engine.js"

// 12:00 in Warsaw: inside calling hours.
const warsawNoon = "2026-02-10T11:00:00.000Z"

/** The engine with the simulated runtime; a call talks for 0.4 s and rings for 0.1 s before it. */
const simulated = InMemory.layerSimulated.pipe(Layer.provide(SimulationConfig.layer(0.4)))

/** An organization with an agent that has a plan and gathers data. */
const setup = (options: { readonly outbound_channels?: number } = {}) =>
  Effect.gen(function* () {
    yield* setNow(warsawNoon)
    const organization = yield* Fixtures.organization(options)
    const created = yield* (yield* Agents).createFromScript(
      organization.id,
      Schema.decodeUnknownSync(CallScriptRequest)({
        agent: {
          greeting: "Hello {{initial_context.first_name}}!",
          agent_goal: "Confirm the appointment",
          conversation_structure: ["Confirm the visit", { title: "Offer a reminder", description: "By SMS" }],
          data_fields: ["email", { name: "visit date", type: "date" }, { name: "confirmed", type: "boolean" }]
        }
      })
    )
    const place = (phone_number: string) =>
      Effect.flatMap(CallPlacement, (calls) =>
        calls.place({
          organizationId: organization.id,
          agent: created.agent.public_id,
          phone_number,
          initial_context: { first_name: "Ola" }
        })
      )
    return { organization, agent: created.agent, place }
  })

const find = (organizationId: OrganizationId, runId: RunId) =>
  Effect.flatMap(RunStore, (runs) => Effect.map(runs.find(organizationId, runId), Option.getOrThrow))

/**
 * Waits until the run reaches a status. The call fibers belong to the runtime, not to the test, so after
 * `TestClock.adjust` they may still be finishing their last steps.
 */
const awaitStatus = (run: Run, statuses: ReadonlyArray<RunStatus>) =>
  Effect.gen(function* () {
    for (let i = 0; i < 1000; i++) {
      const current = yield* find(run.organization_id, run.workflow_run_id)
      if (statuses.includes(current.status)) return current
      yield* Effect.yieldNow()
    }
    return yield* Effect.dieMessage(`run ${run.workflow_run_id} never reached ${statuses.join("/")}`)
  })

describe("SimulatedTelephony", () => {
  it.effect(
    "plays a placed call to its completed end: transcript, recording, gathered data, cost, ledger",
    () =>
      Effect.gen(function* () {
        const { organization, agent, place } = yield* setup({ outbound_channels: 1 })
        const placed = yield* place("+48 500 100 200")
        expect(placed.status).toBe("queued")
        expect((yield* awaitStatus(placed, ["ringing"])).status).toBe("ringing")
        yield* TestClock.adjust("100 millis")
        yield* awaitStatus(placed, ["in_progress"])
        // the only channel is held while the call talks
        expect(Either.isLeft(yield* Effect.either(place("+48500100201")))).toBe(true)
        yield* TestClock.adjust("400 millis")
        const run = yield* awaitStatus(placed, ["completed"])
        expect(run).toMatchObject({
          status: "completed",
          duration_seconds: 1,
          cost: 25,
          ended_at: new Date(new Date(warsawNoon).getTime() + 500),
          channel_reservation_id: null,
          gathered_context: { email: "jan.kowalski@example.com", visit_date: "2026-02-17", confirmed: true },
          sms: [{ to: "+48500100200", text: expect.stringContaining("simulated call") }],
          logs: [{ level: "info", message: expect.stringContaining("Simulated call completed") }]
        })
        const runs = yield* Runs
        const transcript = yield* runs.transcript(organization.id, agent.public_id, run.workflow_run_id)
        expect(transcript.turns[0]).toMatchObject({
          role: "assistant",
          text: "Hello Ola! Do you have a moment?"
        })
        const texts = transcript.turns.map((t) => t.text).join(" ")
        expect(texts).toContain("Confirm the visit")
        expect(texts).toContain("Offer a reminder. By SMS")
        expect(texts).toContain("first name: Ola; phone number: +48500100200")
        // the turns are the merge of the raw file
        const blobs = yield* BlobStore
        const raw = Option.getOrThrow(yield* blobs.get(transcript.file_key))
        const fragments = Either.getOrThrow(TranscriptFile.parse(new TextDecoder().decode(raw.bytes)))
        expect(transcript.turns).toEqual(TranscriptTurns.merge(fragments))
        const recording = yield* runs.recording(organization.id, agent.public_id, run.workflow_run_id)
        const wav = Option.getOrThrow(yield* blobs.get(recording.file_key))
        expect(Either.getOrThrow(WavFile.parse(wav.bytes))).toMatchObject({
          sample_rate: 8000,
          channels: 1,
          bits_per_sample: 16,
          data_bytes: 0.4 * 16_000
        })
        expect(yield* (yield* UsageStore).totals(organization.id, {})).toEqual({
          calls: 1,
          duration_seconds: 1,
          cost: 25
        })
        expect(yield* (yield* ChannelStore).held(organization.id, run.ended_at!)).toEqual([])
        // the channel is free again
        expect((yield* place("+48500100201")).status).toBe("queued")
      }).pipe(Effect.provide(simulated))
  )

  it.effect("ends the test numbers busy, unanswered and failed, with no files and nothing to pay", () =>
    Effect.gen(function* () {
      const { organization, place } = yield* setup()
      const busy = yield* place("+48 500 000 486")
      const unanswered = yield* place("+48 500 000 487")
      const failed = yield* place("+48 500 000 488")
      yield* TestClock.adjust("1 second")
      const expectations: ReadonlyArray<[Run, RunStatus, string]> = [
        [busy, "busy", "the line is busy"],
        [unanswered, "no_answer", "nobody answered"],
        [failed, "failed", "the call could not be connected"]
      ]
      for (const [placed, status, why] of expectations) {
        const run = yield* awaitStatus(placed, [status])
        expect(run).toMatchObject({
          duration_seconds: 0,
          cost: 0,
          gathered_context: {},
          sms: [],
          files: { recording: null, transcript: null },
          channel_reservation_id: null,
          logs: [{ message: expect.stringContaining(why) }]
        })
      }
      expect(yield* (yield* UsageStore).totals(organization.id, {})).toEqual({
        calls: 3,
        duration_seconds: 0,
        cost: 0
      })
      expect(yield* (yield* ChannelStore).held(organization.id, new Date(warsawNoon))).toEqual([])
    }).pipe(Effect.provide(simulated))
  )

  it.effect("talks for SIM_CALL_SECONDS by default 4 seconds, and never longer than the agent may", () =>
    Effect.gen(function* () {
      const { place } = yield* setup()
      const placed = yield* place("+48500100200")
      yield* TestClock.adjust("4999 millis")
      expect((yield* find(placed.organization_id, placed.workflow_run_id)).status).toBe("in_progress")
      yield* TestClock.adjust("1 millis")
      expect((yield* awaitStatus(placed, ["completed"])).duration_seconds).toBe(4)
    }).pipe(Effect.provide(InMemory.layerSimulated))
  )

  it.effect("caps a call at its agent's maximum duration and plans from the definition's steps", () =>
    Effect.gen(function* () {
      const { place } = yield* setup()
      yield* place("+48500100200")
      const [call] = yield* (yield* RecordedCalls).calls
      const input = SimulatedCall.inputOf(call!, 10_000, new Date(warsawNoon))
      expect(input.call_seconds).toBe(600)
      expect(input.plan).toEqual([
        { title: "Confirm the visit", description: null },
        { title: "Offer a reminder", description: "By SMS" }
      ])
      expect(input.first_message).toBe("Hello Ola!")
      expect(input.gathered_fields.map((f) => f.name)).toEqual(["email", "visit_date", "confirmed"])
      expect(SimulatedCall.inputOf(call!, 2.5, new Date(warsawNoon)).call_seconds).toBe(2.5)
    }).pipe(Effect.provide(InMemory.layer))
  )

  it.effect("cuts the calls still running when it shuts down: failed, with the talk time so far", () =>
    Effect.gen(function* () {
      // the recording telephony accepts the call; the simulated runtime then plays it in a scope of its own
      const { organization, place } = yield* setup({ outbound_channels: 1 })
      const placed = yield* place("+48500100200")
      const [call] = yield* (yield* RecordedCalls).calls
      yield* Effect.scoped(
        Effect.gen(function* () {
          const runtime = yield* Layer.build(SimulatedTelephony.layer)
          yield* Context.get(runtime, Telephony).placeCall(call!)
          yield* awaitStatus(placed, ["ringing"])
          yield* TestClock.adjust("1250 millis")
          yield* awaitStatus(placed, ["in_progress"])
        })
      )
      const run = yield* find(organization.id, placed.workflow_run_id)
      expect(run).toMatchObject({
        status: "failed",
        duration_seconds: 1,
        cost: 25,
        channel_reservation_id: null,
        logs: [{ level: "warning", message: "The voice runtime stopped during the call" }]
      })
      // what was said before the cut is kept
      expect(run.files.transcript).not.toBeNull()
      expect(run.files.recording).toBeNull()
      expect(yield* (yield* ChannelStore).held(organization.id, new Date(warsawNoon))).toEqual([])
    }).pipe(Effect.provide(InMemory.layer))
  )

  it.effect("a tool call that dies does not kill the call: it is logged and the call completes", () =>
    Effect.gen(function* () {
      const { organization, place } = yield* setup({ outbound_channels: 1 })
      const placed = yield* place("+48500100200")
      const [call] = yield* (yield* RecordedCalls).calls
      const lookup = {
        tool_uuid: "7d3f1c1e-0000-4000-8000-000000000003",
        name: "Lookup",
        definition: {
          type: "http_api",
          schema_version: 1,
          config: {
            method: "GET",
            url: "https://a.example",
            timeout_ms: 5000,
            trigger_phrases: ["check my order"]
          }
        }
      } as unknown as Tool
      // a runtime whose tool call is a defect (a broken store, say), not a refusal
      const dying = Layer.succeed(
        RuntimeTools.RuntimeTools,
        RuntimeTools.RuntimeTools.of({
          agentOf: () => Effect.succeed({ tools: [lookup] } as unknown as RuntimeTools.RunAgentVersion),
          agentOfRun: () => Effect.succeed({ tools: [lookup] } as unknown as RuntimeTools.RunAgentVersion),
          call: () => Effect.dieMessage("the tool's log could not be written")
        })
      )
      yield* Effect.scoped(
        Effect.gen(function* () {
          const runtime = yield* Layer.build(SimulatedTelephony.layer.pipe(Layer.provide(dying)))
          yield* Context.get(runtime, Telephony).placeCall(call!)
          yield* awaitStatus(placed, ["ringing"])
          yield* TestClock.adjust("30 seconds")
          yield* awaitStatus(placed, ["completed"])
        })
      )
      const run = yield* find(organization.id, placed.workflow_run_id)
      expect(run.channel_reservation_id).toBeNull()
      expect(run.logs).toContainEqual(
        expect.objectContaining({ level: "error", message: "Tool call failed: an internal error" })
      )
    }).pipe(Effect.provide(InMemory.layer))
  )
})
