import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { BlobStore } from "../../src/files/BlobStore.js"
import { RunStore } from "../../src/runs/RunStore.js"
import * as TranscriptFile from "../../src/transcripts/TranscriptFile.js"
import type { TranscriptFragment } from "../../src/transcripts/Transcript.js"
import { Transcripts } from "../../src/transcripts/Transcripts.js"
import * as TranscriptTurns from "../../src/transcripts/TranscriptTurns.js"
import * as Fixtures from "../../testing/Fixtures.js"
import { engine } from "./Engine.js"

const t = (seconds: number) => new Date(Date.UTC(2026, 2, 1, 12, 0, seconds))
const fragments: ReadonlyArray<TranscriptFragment> = [
  { role: "assistant", text: "Hello, this is Ada.", timestamp: t(0) },
  { role: "assistant", text: "Do you have a minute?", timestamp: t(2) },
  { role: "user", text: "Yes.", timestamp: t(4) },
  { role: "user", text: "Go ahead.", timestamp: t(5) },
  { role: "assistant", text: "Great.", timestamp: t(7) }
]

describe("Transcripts", () => {
  it.effect("saves the raw file and reads turns that equal the merge of that file", () =>
    Effect.gen(function* () {
      const org = yield* Fixtures.organization()
      const { agent } = yield* Fixtures.agent(org.id)
      const runs = yield* RunStore
      const run = yield* runs.insert(
        Fixtures.newRun(org.id, agent.id, { status: "completed" }),
        Fixtures.epoch
      )
      const transcripts = yield* Transcripts
      const key = yield* transcripts.save(org.id, run.workflow_run_id, fragments)
      const read = yield* transcripts.read(org.id, run.workflow_run_id)
      expect(read.file_key).toBe(key)
      expect(read.turns).toEqual([
        { role: "assistant", text: "Hello, this is Ada. Do you have a minute?", start: t(0), end: t(2) },
        { role: "user", text: "Yes. Go ahead.", start: t(4), end: t(5) },
        { role: "assistant", text: "Great.", start: t(7), end: t(7) }
      ])
      const blob = yield* (yield* BlobStore).get(key)
      expect(blob._tag).toBe("Some")
      if (blob._tag === "Some") {
        const raw = new TextDecoder().decode(blob.value.bytes)
        expect(raw.split("\n")[0]).toBe("[2026-03-01T12:00:00.000Z] assistant: Hello, this is Ada.")
        const parsed = TranscriptFile.parse(raw)
        expect(parsed._tag === "Right" && TranscriptTurns.merge(parsed.right)).toEqual(read.turns)
      }
    }).pipe(Effect.provide(engine))
  )

  it.effect("answers why a transcript is not there: in progress, never recorded, deleted, or not found", () =>
    Effect.gen(function* () {
      const org = yield* Fixtures.organization()
      const stranger = yield* Fixtures.organization()
      const { agent } = yield* Fixtures.agent(org.id)
      const runs = yield* RunStore
      const transcripts = yield* Transcripts
      const live = yield* runs.insert(
        Fixtures.newRun(org.id, agent.id, { status: "in_progress" }),
        Fixtures.epoch
      )
      yield* transcripts.save(org.id, live.workflow_run_id, fragments)
      expect(yield* Effect.flip(transcripts.read(org.id, live.workflow_run_id))).toMatchObject({
        _tag: "RunFileNotAvailable",
        reason: "in_progress"
      })
      const chat = yield* runs.insert(
        Fixtures.newRun(org.id, agent.id, { mode: "chat", status: "initialized" }),
        Fixtures.epoch
      )
      expect(yield* Effect.flip(transcripts.read(org.id, chat.workflow_run_id))).toMatchObject({
        reason: "not_recorded"
      })

      const done = yield* runs.insert(
        Fixtures.newRun(org.id, agent.id, { status: "completed" }),
        Fixtures.epoch
      )
      const key = yield* transcripts.save(org.id, done.workflow_run_id, fragments)
      yield* (yield* BlobStore).remove(key)
      const deleted = yield* Effect.flip(transcripts.read(org.id, done.workflow_run_id))
      expect(deleted).toMatchObject({ reason: "deleted" })
      expect(deleted.message).toContain("retention")

      expect((yield* Effect.flip(transcripts.read(stranger.id, done.workflow_run_id)))._tag).toBe(
        "RunNotFound"
      )
      expect((yield* Effect.flip(transcripts.save(stranger.id, done.workflow_run_id, fragments)))._tag).toBe(
        "RunNotFound"
      )
    }).pipe(Effect.provide(engine))
  )
})
