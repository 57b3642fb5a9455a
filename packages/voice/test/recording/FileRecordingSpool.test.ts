import { describe, expect, it } from "@effect/vitest"
import { CallRecording, WavFile } from "@voice-agent-platform/core"
import { Effect, Either, Exit, Scope } from "effect"
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as FileRecordingSpool from "../../src/recording/FileRecordingSpool.js"

describe("FileRecordingSpool", () => {
  it.effect("keeps a call's sides in files of its own, gives the mix back, removes them with the scope", () =>
    Effect.gen(function* () {
      const root = mkdtempSync(join(tmpdir(), "spool-test-"))
      try {
        const scope = yield* Scope.make()
        const spool = yield* Scope.extend(FileRecordingSpool.make(root).open, scope)
        const recording = CallRecording.over(spool, 8000)
        // three seconds of the caller, the agent's second in the middle
        yield* recording.caller(new Int16Array(8000).fill(1))
        yield* recording.agent(new Int16Array(8000).fill(100))
        yield* recording.caller(new Int16Array(16000).fill(1))
        const [dir] = readdirSync(root)
        expect(statSync(join(root, dir!, "caller.pcm")).size).toBe(3 * 8000 * 2)
        expect(statSync(join(root, dir!, "agent.pcm")).size).toBe(2 * 8000 * 2)
        expect(recording.samplesInMemory()).toBe(8000)
        const wav = (yield* recording.wav)!
        const info = Either.getOrThrow(WavFile.parse(wav))
        const view = new DataView(wav.buffer, wav.byteOffset + info.data_offset, info.data_bytes)
        const at = (i: number) => view.getInt16(i * 2, true)
        expect(info.data_bytes).toBe(3 * 8000 * 2)
        expect([at(0), at(7999), at(8000), at(15999), at(16000), at(23999)]).toEqual([1, 1, 101, 101, 1, 1])
        yield* Scope.close(scope, Exit.void)
        expect(readdirSync(root)).toEqual([])
      } finally {
        rmSync(root, { recursive: true, force: true })
      }
    })
  )

  it.effect("a directory it cannot write in fails the spool: the recording is given up", () =>
    Effect.gen(function* () {
      const opened = yield* Effect.scoped(
        Effect.either(FileRecordingSpool.make(join(tmpdir(), "no-such-dir", "deeper")).open)
      )
      expect(Either.isLeft(opened) && opened.left._tag).toBe("RecordingSpoolFailed")
    })
  )
})
