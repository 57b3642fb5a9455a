import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer, Option, TestClock } from "effect"
import { CallEvents } from "../../src/calls/CallEvents.js"
import { CallPlacement } from "../../src/calls/CallPlacement.js"
import * as CallReclaim from "../../src/calls/CallReclaim.js"
import { ChannelStore } from "../../src/calls/ChannelStore.js"
import * as WavFile from "../../src/calls/WavFile.js"
import { BlobStore } from "../../src/files/BlobStore.js"
import * as RetentionSweep from "../../src/files/RetentionSweep.js"
import * as Housekeeping from "../../src/housekeeping/Housekeeping.js"
import { IdempotencyKey } from "../../src/idempotency/IdempotencyKey.js"
import { defaultTtl } from "../../src/idempotency/IdempotencyRecord.js"
import { IdempotencyStore } from "../../src/idempotency/IdempotencyStore.js"
import { OrganizationStore } from "../../src/organizations/OrganizationStore.js"
import type { OrganizationId } from "../../src/organizations/Organization.js"
import { newRun } from "../../src/runs/NewRun.js"
import type { RunId } from "../../src/runs/RunId.js"
import { Runs } from "../../src/runs/Runs.js"
import { RunStore } from "../../src/runs/RunStore.js"
import { UsageStore } from "../../src/usage/UsageStore.js"
import { engine, organizationWithAgent, setNow } from "../services/Engine.js"

// 12:00 in Warsaw: inside calling hours.
const warsawNoon = "2026-02-10T11:00:00.000Z"
const interval = Housekeeping.defaultIntervalSeconds
const hourly = 60 * 60
const day = 24 * 60 * 60

/**
 * Runs `test` over the engine with the housekeeping loop every `seconds` on the test clock. The clock is
 * set first: moving it by 56 years afterwards would run every pass in between.
 */
const withLoop =
  (seconds: number) =>
  <A, E, R>(test: Effect.Effect<A, E, R>) =>
    Effect.zipRight(
      setNow(warsawNoon),
      Effect.provide(test, Housekeeping.layer(seconds).pipe(Layer.provideMerge(engine)))
    )

/** A call placed through the engine; the recording telephony leaves its progress to the test. */
const placedCall = (options: { readonly outbound_channels?: number } = {}) =>
  Effect.gen(function* () {
    yield* setNow(warsawNoon)
    const { organization, agent } = yield* organizationWithAgent(options)
    const place = () =>
      Effect.flatMap(CallPlacement, (calls) =>
        calls.place({ organizationId: organization.id, agent: agent.public_id, phone_number: "+48500100200" })
      )
    const run = yield* place()
    const events = yield* CallEvents
    const report = (event: Parameters<(typeof events)["report"]>[2]) =>
      events.report(organization.id, run.workflow_run_id, event)
    return { organization, agent, run, report, place }
  })

const stored = (organizationId: OrganizationId, runId: RunId) =>
  Effect.flatMap(RunStore, (runs) => Effect.map(runs.find(organizationId, runId), Option.getOrThrow))

/** Why the transcript and the recording cannot be read, or "available". */
const fileStates = (organizationId: OrganizationId, agentId: string, runId: RunId) =>
  Effect.gen(function* () {
    const runs = yield* Runs
    const state = <A, E extends { readonly _tag: string }>(read: Effect.Effect<A, E>) =>
      Effect.map(
        Effect.either(read),
        Either.match({
          onLeft: (e) => ("reason" in e ? e.reason : e._tag),
          onRight: () => "available"
        })
      )
    return {
      transcript: yield* state(runs.transcript(organizationId, agentId, runId)),
      recording: yield* state(runs.recording(organizationId, agentId, runId))
    }
  })

describe("Housekeeping", () => {
  it.effect("purges expired idempotency records on its schedule, a bounded number per pass", () =>
    Effect.gen(function* () {
      const { organization } = yield* organizationWithAgent()
      const store = yield* IdempotencyStore
      const perPass = Housekeeping.idempotencyPurgeBatch * Housekeeping.idempotencyPurgeBatchesPerPass
      const now = new Date(warsawNoon)
      yield* Effect.forEach(
        Array.from({ length: perPass + 5 }, (_, i) => i),
        (i) => {
          const claim = {
            organization_id: organization.id,
            key: IdempotencyKey.make(`key-${i}`),
            fingerprint: "fp",
            token: `t${i}`
          }
          return Effect.zipRight(
            store.begin(claim, now, defaultTtl),
            store.complete(claim, { status: 200, body: { i } })
          )
        },
        { discard: true }
      )
      // no request touches the keys again: the loop alone removes them, the pass at expiry at most perPass
      yield* TestClock.adjust(`${defaultTtl.retentionSeconds} seconds`)
      const later = () => Effect.map(TestClock.currentTimeMillis, (ms) => new Date(ms))
      expect(yield* store.purgeExpired(yield* later(), 3)).toBe(3)
      yield* TestClock.adjust(`${hourly} seconds`)
      expect(yield* store.purgeExpired(yield* later(), perPass)).toBe(0)
    }).pipe(withLoop(hourly))
  )

  it.effect("removes a completed call's files once the retention has passed, keeping their keys", () =>
    Effect.gen(function* () {
      const { organization, agent, run, report } = yield* placedCall()
      yield* (yield* OrganizationStore).update(organization.id, { recording_retention_days: 2 })
      yield* report({ type: "answered" })
      yield* report({ type: "fragment", role: "assistant", text: "Hello!", timestamp: new Date(warsawNoon) })
      yield* report({ type: "recording", bytes: WavFile.generate(1) })
      expect(yield* fileStates(organization.id, agent.public_id, run.workflow_run_id)).toEqual({
        transcript: "in_progress",
        recording: "in_progress"
      })
      yield* report({ type: "ended", status: "completed", duration_seconds: 12 })
      const ended = yield* stored(organization.id, run.workflow_run_id)
      expect(yield* fileStates(organization.id, agent.public_id, run.workflow_run_id)).toEqual({
        transcript: "available",
        recording: "available"
      })

      // a day later (retention 2 days) the files are still there
      yield* TestClock.adjust(`${day} seconds`)
      expect(yield* fileStates(organization.id, agent.public_id, run.workflow_run_id)).toEqual({
        transcript: "available",
        recording: "available"
      })
      // the first pass after ended_at + 2 days removes them
      yield* TestClock.adjust(`${day + hourly} seconds`)
      expect(yield* fileStates(organization.id, agent.public_id, run.workflow_run_id)).toEqual({
        transcript: "deleted",
        recording: "deleted"
      })
      const swept = yield* stored(organization.id, run.workflow_run_id)
      expect(swept.files).toEqual(ended.files)
      expect(swept.files.recording).not.toBeNull()
      expect(Option.isNone(yield* (yield* BlobStore).get(swept.files.recording!))).toBe(true)
      expect(Option.isNone(yield* (yield* BlobStore).get(swept.files.transcript!))).toBe(true)
    }).pipe(withLoop(hourly))
  )

  it.effect("keeps files for good without a retention, and a sweep again removes nothing", () =>
    Effect.gen(function* () {
      const { organization, agent, run, report } = yield* placedCall()
      yield* report({ type: "recording", bytes: WavFile.generate(1) })
      yield* report({ type: "ended", status: "completed", duration_seconds: 3 })
      const sweep = yield* RetentionSweep.RetentionSweep
      yield* TestClock.adjust(`${400 * day} seconds`)
      expect(yield* sweep.sweep).toEqual({ runs: 0, files_removed: 0 })
      expect((yield* fileStates(organization.id, agent.public_id, run.workflow_run_id)).recording).toBe(
        "available"
      )
      yield* (yield* OrganizationStore).update(organization.id, { recording_retention_days: 30 })
      expect(yield* sweep.sweep).toEqual({ runs: 1, files_removed: 1 })
      expect(yield* sweep.sweep).toEqual({ runs: 0, files_removed: 0 })
      expect((yield* fileStates(organization.id, agent.public_id, run.workflow_run_id)).recording).toBe(
        "deleted"
      )
    }).pipe(Effect.provide(engine))
  )

  it.effect("sweeps a bounded number of runs per pass and carries on in the next", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization, agent } = yield* organizationWithAgent()
      yield* (yield* OrganizationStore).update(organization.id, { recording_retention_days: 1 })
      const runs = yield* RunStore
      const blobs = yield* BlobStore
      const count = RetentionSweep.batchSize + 5
      for (let i = 0; i < count; i++) {
        const key = `organizations/${organization.id}/runs/x${i}/recording.wav`
        yield* blobs.put(key, { bytes: new Uint8Array([i % 256]), content_type: "audio/wav" })
        yield* runs.insert(
          {
            ...newRun({
              workflow_id: agent.id,
              agent_definition_id: null,
              organization_id: organization.id,
              mode: "phone",
              status: "completed",
              phone_number: null,
              initial_context: {}
            }),
            duration_seconds: 1,
            files: { recording: key, transcript: null },
            ended_at: new Date(new Date(warsawNoon).getTime() + i * 1000)
          },
          new Date(warsawNoon)
        )
      }
      yield* TestClock.adjust(`${2 * day} seconds`)
      const sweep = yield* RetentionSweep.RetentionSweep
      expect(yield* sweep.sweep).toEqual({
        runs: RetentionSweep.batchSize,
        files_removed: RetentionSweep.batchSize
      })
      expect(yield* sweep.sweep).toEqual({ runs: 5, files_removed: 5 })
      expect(yield* sweep.sweep).toEqual({ runs: 0, files_removed: 0 })
    }).pipe(Effect.provide(engine))
  )

  it.effect(
    "reclaims a call past its agent's maximum duration plus the grace: failed, channel and ledger",
    () =>
      Effect.gen(function* () {
        const { organization, agent, run, report, place } = yield* placedCall({ outbound_channels: 1 })
        yield* report({ type: "answered" })
        const reservation = run.channel_reservation_id!
        expect(reservation).not.toBeNull()
        // the one channel is taken
        expect(Either.isLeft(yield* Effect.either(place()))).toBe(true)
        const max = agent.workflow_configurations.max_call_duration_seconds
        // the time before the answer (ringing, the carrier's queue) and the grace on top of the maximum
        const reclaimAt = 120 + max + 60

        yield* TestClock.adjust(`${reclaimAt - 1} seconds`)
        expect((yield* stored(organization.id, run.workflow_run_id)).status).toBe("in_progress")

        yield* TestClock.adjust(`${interval + 1} seconds`)
        const reclaimed = yield* stored(organization.id, run.workflow_run_id)
        expect(reclaimed).toMatchObject({
          status: "failed",
          duration_seconds: 0,
          cost: 0,
          channel_reservation_id: null
        })
        expect(reclaimed.ended_at!.getTime() - run.created_at.getTime()).toBeGreaterThanOrEqual(
          reclaimAt * 1000
        )
        expect(reclaimed.logs.map((l) => l.message)).toContain(CallReclaim.reclaimMessage)
        // the reservation was released (not merely expired) and the ledger has the call's line
        expect(yield* (yield* ChannelStore).release(organization.id, reservation)).toBe(false)
        const ledger = yield* (yield* UsageStore).list(organization.id, {}, { page: 1, limit: 10 })
        expect(ledger.items).toMatchObject([{ run_id: run.workflow_run_id, duration_seconds: 0, cost: 0 }])
        // a runtime reporting the end late finds the call over
        expect(
          Either.isLeft(
            yield* Effect.either(report({ type: "ended", status: "completed", duration_seconds: 5 }))
          )
        ).toBe(true)
        // and a new call gets the channel
        expect((yield* place()).status).toBe("queued")
      }).pipe(withLoop(interval))
  )

  it.effect("leaves calls within their time, ended calls and record-only runs alone", () =>
    Effect.gen(function* () {
      const { organization, agent, run, report } = yield* placedCall()
      const conversation = yield* (yield* Runs).createConversation(organization.id, agent.public_id, {
        mode: "chat"
      })
      const ended = yield* placedCall()
      yield* ended.report({ type: "ended", status: "busy", duration_seconds: 0 })
      const reclaim = yield* CallReclaim.CallReclaim
      // the time before the answer (120 s), the maximum and the grace (60 s), less a second
      yield* TestClock.adjust(`${120 + agent.workflow_configurations.max_call_duration_seconds + 59} seconds`)
      expect(yield* reclaim.reclaim).toEqual([])
      yield* TestClock.adjust("1 second")
      expect(yield* reclaim.reclaim).toEqual([run.workflow_run_id])
      expect(yield* reclaim.reclaim).toEqual([])
      expect((yield* stored(organization.id, conversation.workflow_run_id)).status).toBe("initialized")
      expect((yield* stored(ended.organization.id, ended.run.workflow_run_id)).status).toBe("busy")
      void report
    }).pipe(Effect.provide(engine))
  )
})
