import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Exit, Layer, Option, TestClock } from "effect"
import type { CallEvent } from "../../src/calls/CallEvents.js"
import { CallEvents } from "../../src/calls/CallEvents.js"
import { CallFragmentStore } from "../../src/calls/CallFragmentStore.js"
import { CallPlacement } from "../../src/calls/CallPlacement.js"
import * as CallRates from "../../src/calls/CallRates.js"
import { ChannelStore } from "../../src/calls/ChannelStore.js"
import * as WavFile from "../../src/calls/WavFile.js"
import { InMemory, PriceListConfig, SecureRandom, Services } from "../../src/index.js"
import * as MemoryBlobStore from "../../src/memory/MemoryBlobStore.js"
import * as MemoryTelephony from "../../src/memory/MemoryTelephony.js"
import { MinorUnits } from "../../src/money/Money.js"
import type { OrganizationId } from "../../src/organizations/Organization.js"
import type { RunId } from "../../src/runs/RunId.js"
import { Runs } from "../../src/runs/Runs.js"
import { RunStore } from "../../src/runs/RunStore.js"
import type { TranscriptFragment } from "../../src/transcripts/Transcript.js"
import * as TranscriptTurns from "../../src/transcripts/TranscriptTurns.js"
import { Transcripts } from "../../src/transcripts/Transcripts.js"
import { UsageStore } from "../../src/usage/UsageStore.js"
import * as Fixtures from "../../testing/Fixtures.js"
import { engine, organizationWithAgent, setNow } from "../services/Engine.js"

// 12:00 in Warsaw: inside calling hours.
const warsawNoon = "2026-02-10T11:00:00.000Z"
const at = (seconds: number) => new Date(new Date(warsawNoon).getTime() + seconds * 1000)

/** A queued call placed through the engine (the recording telephony does nothing with it). */
const queuedCall = (options: { readonly outbound_channels?: number } = {}) =>
  Effect.gen(function* () {
    yield* setNow(warsawNoon)
    const { organization, agent } = yield* organizationWithAgent(options)
    const run = yield* (yield* CallPlacement).place({
      organizationId: organization.id,
      agent: agent.public_id,
      phone_number: "+48500100200",
      initial_context: { first_name: "Ola" }
    })
    const events = yield* CallEvents
    const report = (event: CallEvent) => events.report(organization.id, run.workflow_run_id, event)
    return { organization, agent, run, report }
  })

const stored = (organizationId: OrganizationId, runId: RunId) =>
  Effect.flatMap(RunStore, (runs) => Effect.map(runs.find(organizationId, runId), Option.getOrThrow))

const heldChannels = (organizationId: OrganizationId) =>
  Effect.flatMap(ChannelStore, (channels) => channels.held(organizationId, at(0)))

const said: ReadonlyArray<TranscriptFragment> = [
  { role: "assistant", text: "Hello Ola!", timestamp: at(2) },
  { role: "assistant", text: "Do you have a moment?", timestamp: at(3) },
  { role: "user", text: "Yes.", timestamp: at(4) }
]

describe("CallEvents", () => {
  it.effect("moves a call through ringing and in progress to its end, and ignores stale reports", () =>
    Effect.gen(function* () {
      const { organization, run, report } = yield* queuedCall()
      expect(run.status).toBe("queued")
      const ringing = yield* report({ type: "ringing" })
      expect(ringing).toMatchObject({ _tag: "Applied", run: { status: "ringing" } })
      const answered = yield* report({ type: "answered" })
      expect(answered).toMatchObject({ _tag: "Applied", run: { status: "in_progress" } })
      // a late or repeated status report changes nothing
      expect(yield* report({ type: "started" })).toMatchObject({
        _tag: "Ignored",
        run: { status: "in_progress" }
      })
      expect(yield* report({ type: "answered" })).toMatchObject({ _tag: "Ignored" })
      expect((yield* stored(organization.id, run.workflow_run_id)).status).toBe("in_progress")
    }).pipe(Effect.provide(engine))
  )

  it.effect(
    "keeps what happens during the call, then saves transcript, duration, cost, ledger line and frees the channel",
    () =>
      Effect.gen(function* () {
        const { organization, agent, run, report } = yield* queuedCall()
        const runId = run.workflow_run_id
        yield* report({ type: "ringing" })
        yield* report({ type: "answered" })
        for (const fragment of said) yield* report({ type: "fragment", ...fragment })
        yield* report({ type: "gathered", values: { confirmed: false, email: "ola@example.com" } })
        yield* report({ type: "gathered", values: { confirmed: true } })
        yield* TestClock.adjust("5 seconds")
        yield* report({ type: "sms", to: "+48500100200", text: "See you on Tuesday" })
        yield* report({ type: "log", level: "info", message: "Appointment confirmed" })
        const wav = WavFile.generate(1.5)
        const withRecording = yield* report({ type: "recording", bytes: wav })
        expect(withRecording.run.files.recording).not.toBeNull()

        const live = yield* stored(organization.id, runId)
        expect(live).toMatchObject({
          status: "in_progress",
          gathered_context: { confirmed: true, email: "ola@example.com" },
          sms: [{ to: "+48500100200", text: "See you on Tuesday", sent_at: at(5) }],
          logs: [{ timestamp: at(5), level: "info", message: "Appointment confirmed" }],
          duration_seconds: null,
          cost: null,
          ended_at: null
        })
        expect(yield* (yield* CallFragmentStore).list(organization.id, runId)).toEqual(said)
        // nothing can be read while the call is live
        const runs = yield* Runs
        expect(yield* Effect.flip(runs.recording(organization.id, agent.public_id, runId))).toMatchObject({
          reason: "in_progress"
        })
        expect(yield* Effect.flip(runs.transcript(organization.id, agent.public_id, runId))).toMatchObject({
          reason: "in_progress"
        })
        expect(yield* heldChannels(organization.id)).toHaveLength(1)

        yield* TestClock.adjust("60 seconds")
        const ended = yield* report({ type: "ended", status: "completed", duration_seconds: 60.4 })
        expect(ended.run).toMatchObject({
          status: "completed",
          duration_seconds: 61,
          cost: 50,
          ended_at: at(65),
          channel_reservation_id: null
        })
        expect(ended.run.files.transcript).not.toBeNull()
        expect(yield* heldChannels(organization.id)).toEqual([])
        const ledger = yield* (yield* UsageStore).list(organization.id, {}, { page: 1, limit: 10 })
        expect(ledger.items).toEqual([
          {
            id: expect.any(Number),
            organization_id: organization.id,
            kind: "call",
            run_id: runId,
            agent_id: agent.id,
            mode: "phone",
            duration_seconds: 61,
            cost: 50,
            prompt_tokens: 0,
            completion_tokens: 0,
            currency: "PLN",
            recorded_at: at(65)
          }
        ])
        const transcript = yield* runs.transcript(organization.id, agent.public_id, runId)
        expect(transcript.turns).toEqual(TranscriptTurns.merge(said))
        expect(transcript.turns.map((t) => t.text)).toEqual(["Hello Ola! Do you have a moment?", "Yes."])
        const recording = yield* runs.recording(organization.id, agent.public_id, runId)
        expect(recording.content_type).toBe("audio/wav")
        // the live fragments are gone once the file holds them
        expect(yield* (yield* CallFragmentStore).list(organization.id, runId)).toEqual([])
      }).pipe(Effect.provide(engine))
  )

  it.effect("refuses every event after the end, another end included, and bills once", () =>
    Effect.gen(function* () {
      const { organization, run, report } = yield* queuedCall()
      yield* report({ type: "answered" })
      yield* report({ type: "ended", status: "completed", duration_seconds: 3 })
      const after: ReadonlyArray<CallEvent> = [
        { type: "ringing" },
        { type: "answered" },
        { type: "fragment", role: "user", text: "Hello?", timestamp: at(9) },
        { type: "gathered", values: { late: true } },
        { type: "sms", to: "+48500100200", text: "late" },
        { type: "log", level: "error", message: "late" },
        { type: "recording", bytes: WavFile.generate(1) },
        { type: "ended", status: "failed", duration_seconds: 99 }
      ]
      for (const event of after) {
        const refused = yield* Effect.flip(report(event))
        expect(refused).toMatchObject({ _tag: "CallAlreadyEnded", workflow_run_id: run.workflow_run_id })
        expect(refused.message).toBe(
          `Run ${run.workflow_run_id} has already ended (completed); it takes no more call events`
        )
      }
      expect(yield* stored(organization.id, run.workflow_run_id)).toMatchObject({
        status: "completed",
        duration_seconds: 3,
        cost: 25,
        gathered_context: {},
        sms: [],
        logs: [],
        files: { recording: null, transcript: null }
      })
      expect(yield* (yield* UsageStore).totals(organization.id, {})).toEqual({
        calls: 1,
        duration_seconds: 3,
        cost: 25
      })
    }).pipe(Effect.provide(engine))
  )

  it.effect("ends an unanswered call at no cost, without a transcript, and still frees the channel", () =>
    Effect.gen(function* () {
      const { organization, run, report } = yield* queuedCall({ outbound_channels: 1 })
      const ended = yield* report({ type: "ended", status: "busy", duration_seconds: 0 })
      expect(ended.run).toMatchObject({
        status: "busy",
        duration_seconds: 0,
        cost: 0,
        files: { recording: null, transcript: null },
        channel_reservation_id: null
      })
      expect(yield* heldChannels(organization.id)).toEqual([])
      expect(yield* (yield* UsageStore).totals(organization.id, {})).toEqual({
        calls: 1,
        duration_seconds: 0,
        cost: 0
      })
      expect(
        yield* Effect.flip(Effect.flatMap(Transcripts, (t) => t.read(organization.id, run.workflow_run_id)))
      ).toMatchObject({ reason: "not_recorded" })
    }).pipe(Effect.provide(engine))
  )

  it.effect("refuses a recording that is not a PCM WAV file and stores nothing", () =>
    Effect.gen(function* () {
      const { organization, run, report } = yield* queuedCall()
      const notWav = yield* Effect.flip(
        report({ type: "recording", bytes: new TextEncoder().encode("ID3 mp3") })
      )
      expect(notWav).toMatchObject({ _tag: "InvalidRecording", reason: "shorter than a RIFF header" })
      expect((yield* stored(organization.id, run.workflow_run_id)).files.recording).toBeNull()
    }).pipe(Effect.provide(engine))
  )

  it.effect("knows no run of another organization, nor a missing one", () =>
    Effect.gen(function* () {
      const { run } = yield* queuedCall()
      const stranger = yield* Fixtures.organization()
      const events = yield* CallEvents
      expect(
        yield* Effect.flip(events.report(stranger.id, run.workflow_run_id, { type: "ringing" }))
      ).toMatchObject({
        _tag: "RunNotFound"
      })
      expect(
        yield* Effect.flip(
          events.report(run.organization_id, (run.workflow_run_id + 1000) as RunId, { type: "answered" })
        )
      ).toMatchObject({ _tag: "RunNotFound" })
    }).pipe(Effect.provide(engine))
  )

  it.effect("loses no fragment or gathered value when events arrive at once", () =>
    Effect.gen(function* () {
      const { organization, agent, run, report } = yield* queuedCall()
      yield* report({ type: "answered" })
      yield* Effect.all(
        Array.from({ length: 40 }, (_, i) =>
          i % 2 === 0
            ? report({ type: "fragment", role: "user", text: `word ${i}`, timestamp: at(i) })
            : report({ type: "gathered", values: { [`field_${i}`]: i } })
        ),
        { concurrency: "unbounded" }
      )
      yield* report({ type: "ended", status: "completed", duration_seconds: 40 })
      const transcript = yield* (yield* Runs).transcript(
        organization.id,
        agent.public_id,
        run.workflow_run_id
      )
      expect(transcript.turns).toHaveLength(1)
      expect(transcript.turns[0]?.text.split(" word ").length).toBe(20)
      expect(
        Object.keys((yield* stored(organization.id, run.workflow_run_id)).gathered_context)
      ).toHaveLength(20)
    }).pipe(Effect.provide(engine))
  )

  it.effect("charges at the configured rate", () =>
    Effect.gen(function* () {
      const { report } = yield* queuedCall()
      const ended = yield* report({ type: "ended", status: "completed", duration_seconds: 61 })
      // 1 PLN a minute, by the second: 61 s = 101.67 gr, rounded up
      expect(ended.run.cost).toBe(102)
    }).pipe(
      Effect.provide(
        engine.pipe(
          Layer.provide(CallRates.layer({ per_minute: MinorUnits.make(100), increment_seconds: 1 }))
        )
      )
    )
  )

  it.effect(
    "ends a call all at once or not at all: a failing ledger leaves the call live, its channel held",
    () =>
      Effect.gen(function* () {
        const { organization, run, report } = yield* queuedCall()
        yield* report({ type: "answered" })
        for (const fragment of said) yield* report({ type: "fragment", ...fragment })
        const exit = yield* Effect.exit(report({ type: "ended", status: "completed", duration_seconds: 5 }))
        expect(Exit.isFailure(exit)).toBe(true)
        expect(yield* stored(organization.id, run.workflow_run_id)).toMatchObject({
          status: "in_progress",
          duration_seconds: null,
          cost: null,
          ended_at: null,
          channel_reservation_id: run.channel_reservation_id,
          files: { transcript: null }
        })
        expect(yield* heldChannels(organization.id)).toHaveLength(1)
        expect(yield* (yield* CallFragmentStore).list(organization.id, run.workflow_run_id)).toEqual(said)
      }).pipe(
        Effect.provide(
          Services.layer.pipe(
            Layer.provideMerge(
              Layer.mergeAll(
                InMemory.layerStores.pipe(
                  Layer.map((stores) =>
                    Context.add(stores, UsageStore, {
                      ...Context.get(stores, UsageStore),
                      record: () => Effect.dieMessage("the ledger is down"),
                      recordMany: () => Effect.dieMessage("the ledger is down")
                    })
                  )
                ),
                MemoryBlobStore.layer,
                MemoryTelephony.layer,
                SecureRandom.layerWebCrypto,
                PriceListConfig.layerDefault
              )
            )
          )
        )
      )
  )
})
