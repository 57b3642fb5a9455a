import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { Agents } from "../../src/agents/Agents.js"
import { BlobStore } from "../../src/files/BlobStore.js"
import { MinorUnits } from "../../src/money/Money.js"
import type { RunStatus } from "../../src/runs/Run.js"
import { RunId } from "../../src/runs/RunId.js"
import { recordingKey, Runs } from "../../src/runs/Runs.js"
import { RunStore } from "../../src/runs/RunStore.js"
import type { TranscriptFragment } from "../../src/transcripts/Transcript.js"
import { fileKey, Transcripts } from "../../src/transcripts/Transcripts.js"
import { UsageStore } from "../../src/usage/UsageStore.js"
import * as Fixtures from "../../testing/Fixtures.js"
import { engine, setNow } from "./Engine.js"

const firstPage = { page: 1, limit: 50 }
const wav = new Uint8Array([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x41, 0x56, 0x45])
const fragments: ReadonlyArray<TranscriptFragment> = [
  { role: "assistant", text: "Hello.", timestamp: new Date("2026-01-15T10:00:01Z") },
  { role: "user", text: "Hi.", timestamp: new Date("2026-01-15T10:00:02Z") }
]

/** An organization, one of its agents, and a second agent of the same organization. */
const setup = Effect.gen(function* () {
  const organization = yield* Fixtures.organization()
  const { agent } = yield* Fixtures.agent(organization.id)
  const { agent: other } = yield* Fixtures.agent(organization.id, "Other agent")
  return { organization, agent, other }
})

/** A phone run of the agent in the given status. */
const phoneRun = (
  organizationId: Parameters<typeof Fixtures.newRun>[0],
  agentId: Parameters<typeof Fixtures.newRun>[1],
  status: RunStatus,
  at: Date = Fixtures.epoch
) => Effect.flatMap(RunStore, (runs) => runs.insert(Fixtures.newRun(organizationId, agentId, { status }), at))

describe("Runs", () => {
  it.effect("creates a conversation record: status initialized, no call, the given context and name", () =>
    Effect.gen(function* () {
      yield* setNow("2026-03-01T09:00:00Z")
      const { agent, organization } = yield* setup
      const runs = yield* Runs
      const run = yield* runs.createConversation(organization.id, agent.public_id, {
        mode: "webrtc",
        initial_context: { first_name: "Ada" },
        name: "Browser demo"
      })
      expect(run).toMatchObject({
        workflow_id: agent.id,
        organization_id: organization.id,
        mode: "webrtc",
        status: "initialized",
        name: "Browser demo",
        phone_number: null,
        initial_context: { first_name: "Ada" },
        gathered_context: {},
        duration_seconds: null,
        cost: null,
        channel_reservation_id: null,
        files: { recording: null, transcript: null },
        created_at: new Date("2026-03-01T09:00:00Z"),
        ended_at: null
      })
      const chat = yield* runs.createConversation(organization.id, String(agent.id), { mode: "chat" })
      expect(chat).toMatchObject({ mode: "chat", name: null, initial_context: {} })
      expect(yield* runs.get(organization.id, agent.public_id, run.workflow_run_id)).toEqual(run)
    }).pipe(Effect.provide(engine))
  )

  it.effect("refuses conversations with an unknown or archived agent", () =>
    Effect.gen(function* () {
      const { agent, organization } = yield* setup
      const stranger = yield* Fixtures.organization()
      const runs = yield* Runs
      expect(
        (yield* Effect.flip(runs.createConversation(stranger.id, agent.public_id, { mode: "chat" })))._tag
      ).toBe("AgentNotFound")
      yield* (yield* Agents).update(organization.id, agent.public_id, { status: "archived" })
      expect(
        (yield* Effect.flip(runs.createConversation(organization.id, agent.public_id, { mode: "chat" })))._tag
      ).toBe("AgentArchived")
    }).pipe(Effect.provide(engine))
  )

  it.effect("lists the agent's runs only, newest first, filtered by status and creation time", () =>
    Effect.gen(function* () {
      const { agent, organization, other } = yield* setup
      const runs = yield* Runs
      const early = yield* phoneRun(organization.id, agent.id, "completed", new Date("2026-01-01T00:00:00Z"))
      const middle = yield* phoneRun(organization.id, agent.id, "busy", new Date("2026-01-02T00:00:00Z"))
      const late = yield* phoneRun(organization.id, agent.id, "completed", new Date("2026-01-03T00:00:00Z"))
      yield* phoneRun(organization.id, other.id, "completed", new Date("2026-01-02T00:00:00Z"))
      const ids = (page: { readonly items: ReadonlyArray<{ readonly workflow_run_id: RunId }> }) =>
        page.items.map((r) => r.workflow_run_id)

      expect(ids(yield* runs.list(organization.id, agent.public_id, {}, firstPage))).toEqual([
        late.workflow_run_id,
        middle.workflow_run_id,
        early.workflow_run_id
      ])
      expect(
        ids(yield* runs.list(organization.id, agent.public_id, { status: "completed" }, firstPage))
      ).toEqual([late.workflow_run_id, early.workflow_run_id])
      expect(
        ids(
          yield* runs.list(
            organization.id,
            agent.public_id,
            {
              created_after: new Date("2026-01-02T00:00:00Z"),
              created_before: new Date("2026-01-03T00:00:00Z")
            },
            firstPage
          )
        )
      ).toEqual([middle.workflow_run_id])
      const second = yield* runs.list(organization.id, agent.public_id, {}, { page: 2, limit: 2 })
      expect(second).toMatchObject({ total_count: 3, total_pages: 2, page: 2, limit: 2 })
      expect(ids(second)).toEqual([early.workflow_run_id])
    }).pipe(Effect.provide(engine))
  )

  it.effect("a run of another agent, or of another organization, is not found under this agent", () =>
    Effect.gen(function* () {
      const { agent, organization, other } = yield* setup
      const stranger = yield* Fixtures.organization()
      const runs = yield* Runs
      const run = yield* phoneRun(organization.id, agent.id, "completed")
      expect((yield* runs.get(organization.id, agent.public_id, run.workflow_run_id)).workflow_run_id).toBe(
        run.workflow_run_id
      )
      const reads: ReadonlyArray<
        (...args: Parameters<typeof runs.get>) => Effect.Effect<unknown, { readonly _tag: string }>
      > = [runs.get, runs.transcript, runs.recording, runs.delete]
      for (const read of reads) {
        expect((yield* Effect.flip(read(organization.id, other.public_id, run.workflow_run_id)))._tag).toBe(
          "RunNotFound"
        )
        expect((yield* Effect.flip(read(stranger.id, agent.public_id, run.workflow_run_id)))._tag).toBe(
          "AgentNotFound"
        )
      }
      expect((yield* Effect.flip(runs.get(organization.id, agent.public_id, RunId.make(999_999))))._tag).toBe(
        "RunNotFound"
      )
      expect((yield* Effect.flip(runs.list(organization.id, "agent_nope", {}, firstPage)))._tag).toBe(
        "AgentNotFound"
      )
    }).pipe(Effect.provide(engine))
  )

  it.effect("answers why a recording is not there: in progress, never recorded, deleted", () =>
    Effect.gen(function* () {
      const { agent, organization } = yield* setup
      const runs = yield* Runs
      const reasonOf = (runId: RunId) =>
        Effect.map(Effect.flip(runs.recording(organization.id, agent.public_id, runId)), (e) =>
          e._tag === "RunFileNotAvailable" ? `${e.file}:${e.reason}` : e._tag
        )
      for (const status of ["queued", "ringing", "in_progress"] as const) {
        const live = yield* phoneRun(organization.id, agent.id, status)
        yield* runs.saveRecording(organization.id, live.workflow_run_id, wav)
        expect(yield* reasonOf(live.workflow_run_id)).toBe("recording:in_progress")
      }
      const none = yield* phoneRun(organization.id, agent.id, "no_answer")
      expect(yield* reasonOf(none.workflow_run_id)).toBe("recording:not_recorded")

      const done = yield* phoneRun(organization.id, agent.id, "completed")
      const key = yield* runs.saveRecording(organization.id, done.workflow_run_id, wav)
      expect(key).toBe(recordingKey(organization.id, done.workflow_run_id))
      const recording = yield* runs.recording(organization.id, agent.public_id, done.workflow_run_id)
      expect(recording).toMatchObject({ file_key: key, content_type: "audio/wav" })
      const blob = yield* (yield* BlobStore).get(key)
      expect(Option.map(blob, (b) => [Array.from(b.bytes), b.content_type])).toEqual(
        Option.some([Array.from(wav), "audio/wav"])
      )
      yield* (yield* BlobStore).remove(key)
      expect(yield* reasonOf(done.workflow_run_id)).toBe("recording:deleted")
    }).pipe(Effect.provide(engine))
  )

  it.effect("reads the transcript through the agent's path", () =>
    Effect.gen(function* () {
      const { agent, organization } = yield* setup
      const runs = yield* Runs
      const run = yield* phoneRun(organization.id, agent.id, "completed")
      yield* (yield* Transcripts).save(organization.id, run.workflow_run_id, fragments)
      const transcript = yield* runs.transcript(organization.id, agent.public_id, run.workflow_run_id)
      expect(transcript.turns.map((t) => [t.role, t.text])).toEqual([
        ["assistant", "Hello."],
        ["user", "Hi."]
      ])
    }).pipe(Effect.provide(engine))
  )

  it.effect("deleting erases the files and the record but keeps the usage line", () =>
    Effect.gen(function* () {
      const { agent, organization } = yield* setup
      const runs = yield* Runs
      const store = yield* RunStore
      const blobs = yield* BlobStore
      const usage = yield* UsageStore
      const run = yield* phoneRun(organization.id, agent.id, "completed")
      yield* store.update(organization.id, run.workflow_run_id, {
        duration_seconds: 65,
        cost: MinorUnits.make(123),
        gathered_context: { confirmed: true }
      })
      const recording = yield* runs.saveRecording(organization.id, run.workflow_run_id, wav)
      const transcript = yield* (yield* Transcripts).save(organization.id, run.workflow_run_id, fragments)
      expect(transcript).toBe(fileKey(organization.id, run.workflow_run_id))
      yield* usage.record({
        organization_id: organization.id,
        run_id: run.workflow_run_id,
        agent_id: agent.id,
        mode: "phone",
        kind: "call" as const,
        prompt_tokens: 0,
        completion_tokens: 0,
        duration_seconds: 65,
        cost: MinorUnits.make(123),
        currency: "PLN",
        recorded_at: Fixtures.epoch
      })
      const totalsBefore = yield* usage.totals(organization.id, {})

      yield* runs.delete(organization.id, agent.public_id, run.workflow_run_id)

      expect(Option.isNone(yield* blobs.get(recording))).toBe(true)
      expect(Option.isNone(yield* blobs.get(transcript))).toBe(true)
      expect(Option.isNone(yield* store.find(organization.id, run.workflow_run_id))).toBe(true)
      const reads: ReadonlyArray<
        (...args: Parameters<typeof runs.get>) => Effect.Effect<unknown, { readonly _tag: string }>
      > = [runs.get, runs.transcript, runs.recording, runs.delete]
      for (const read of reads) {
        expect((yield* Effect.flip(read(organization.id, agent.public_id, run.workflow_run_id)))._tag).toBe(
          "RunNotFound"
        )
      }
      expect((yield* runs.list(organization.id, agent.public_id, {}, firstPage)).total_count).toBe(0)
      expect(yield* usage.totals(organization.id, {})).toEqual(totalsBefore)
      expect(totalsBefore).toMatchObject({ calls: 1, duration_seconds: 65, cost: 123 })
    }).pipe(Effect.provide(engine))
  )

  it.effect("refuses to delete a live call and keeps it and its files; ended and record-only runs go", () =>
    Effect.gen(function* () {
      const { agent, organization } = yield* setup
      const runs = yield* Runs
      const blobs = yield* BlobStore
      for (const status of ["queued", "ringing", "in_progress"] as const) {
        const live = yield* phoneRun(organization.id, agent.id, status)
        const key = yield* runs.saveRecording(organization.id, live.workflow_run_id, wav)
        const refused = yield* Effect.flip(
          runs.delete(organization.id, agent.public_id, live.workflow_run_id)
        )
        expect(refused).toMatchObject({ _tag: "RunStillLive", status })
        expect(refused.message).toBe(
          `Run ${live.workflow_run_id} is ${status}; it can be deleted once the call has ended`
        )
        expect((yield* runs.get(organization.id, agent.public_id, live.workflow_run_id)).status).toBe(status)
        expect(Option.isSome(yield* blobs.get(key))).toBe(true)
      }
      for (const status of ["initialized", "completed", "busy", "no_answer", "failed", "canceled"] as const) {
        const ended = yield* phoneRun(organization.id, agent.id, status)
        yield* runs.delete(organization.id, agent.public_id, ended.workflow_run_id)
        expect(
          (yield* Effect.flip(runs.get(organization.id, agent.public_id, ended.workflow_run_id)))._tag
        ).toBe("RunNotFound")
      }
    }).pipe(Effect.provide(engine))
  )
})
