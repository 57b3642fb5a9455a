import { FileSystem, Path } from "@effect/platform"
import { NodeContext } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { BlobStore } from "@voice-agent-platform/core"
import { blobStoreContract } from "@voice-agent-platform/core/testing"
import { Effect, Either, Exit, Layer, Option } from "effect"
import * as FileSystemBlobStore from "../src/FileSystemBlobStore.js"

/** The store over a fresh temporary directory, removed afterwards; answers the directory too. */
const temporaryRoot = Effect.flatMap(FileSystem.FileSystem, (fs) => fs.makeTempDirectoryScoped())

const storeInTemporaryDirectory = Layer.unwrapScoped(
  Effect.map(temporaryRoot, FileSystemBlobStore.layer)
).pipe(Layer.provide(NodeContext.layer))

blobStoreContract("filesystem", storeInTemporaryDirectory)

/** Runs `body` with a store over a fresh directory and that directory. */
const withStore = <A, E>(
  body: (
    blobs: BlobStore.BlobStore["Type"],
    root: string
  ) => Effect.Effect<A, E, FileSystem.FileSystem | Path.Path>
) =>
  Effect.gen(function* () {
    const root = yield* temporaryRoot
    const blobs = yield* FileSystemBlobStore.make(root)
    return yield* body(blobs, root)
  }).pipe(Effect.scoped, Effect.provide(NodeContext.layer))

/** Every file under `root`, relative, sorted. */
const listing = (root: string) =>
  Effect.flatMap(FileSystem.FileSystem, (fs) =>
    Effect.map(fs.readDirectory(root, { recursive: true }), (entries) => [...entries].sort())
  )

describe("FileSystemBlobStore", () => {
  it("maps keys to suffixed paths and refuses keys that could leave the root", () => {
    expect(Either.getOrThrow(FileSystemBlobStore.paths("organizations/1/runs/42/recording.wav"))).toEqual({
      directory: ["organizations.d", "1.d", "runs.d", "42.d"],
      data: "recording.wav.blob",
      meta: "recording.wav.meta.json"
    })
    for (const key of ["", "/etc/passwd", "../x", "a/../../x", "a/./b", "a//b", "a/", "a\\b", "a\0b", ".."]) {
      expect(Either.isLeft(FileSystemBlobStore.paths(key)), key).toBe(true)
    }
  })

  it.effect("stores the bytes and a JSON sidecar under the root and nothing else", () =>
    withStore((blobs, root) =>
      Effect.gen(function* () {
        const fs = yield* FileSystem.FileSystem
        const path = yield* Path.Path
        yield* blobs.put("organizations/1/runs/2/transcript.txt", {
          bytes: new TextEncoder().encode("hello"),
          content_type: "text/plain; charset=utf-8"
        })
        const dir = path.join("organizations.d", "1.d", "runs.d", "2.d")
        expect(yield* listing(root)).toEqual(
          [
            "organizations.d",
            path.join("organizations.d", "1.d"),
            path.join("organizations.d", "1.d", "runs.d"),
            dir,
            path.join(dir, "transcript.txt.blob"),
            path.join(dir, "transcript.txt.meta.json")
          ].sort()
        )
        expect(yield* fs.readFileString(path.join(root, dir, "transcript.txt.blob"))).toBe("hello")
        expect(
          JSON.parse(yield* fs.readFileString(path.join(root, dir, "transcript.txt.meta.json")))
        ).toEqual({
          content_type: "text/plain; charset=utf-8"
        })
      })
    )
  )

  it.effect("refuses a key outside the root as a defect, writing nothing", () =>
    withStore((blobs, root) =>
      Effect.gen(function* () {
        const exit = yield* Effect.exit(
          blobs.put("../escape.txt", { bytes: new Uint8Array(1), content_type: "x" })
        )
        expect(Exit.isFailure(exit) && Exit.isInterrupted(exit)).toBe(false)
        expect(Exit.isFailure(exit)).toBe(true)
        expect(String(exit)).toContain("InvalidBlobKey")
        expect(yield* listing(root)).toEqual([])
      })
    )
  )

  it.effect("ignores a temporary file left by a crash and reads a file without sidecar as octet-stream", () =>
    withStore((blobs, root) =>
      Effect.gen(function* () {
        const fs = yield* FileSystem.FileSystem
        const path = yield* Path.Path
        yield* blobs.put("a/b.wav", { bytes: new Uint8Array([1, 2]), content_type: "audio/wav" })
        // a write that died before its rename leaves only a temporary file behind
        yield* fs.writeFile(path.join(root, "a.d", "c.wav.blob.123.tmp"), new Uint8Array([9]))
        expect(Option.isNone(yield* blobs.get("a/c.wav"))).toBe(true)
        expect(Array.from(Option.getOrThrow(yield* blobs.get("a/b.wav")).bytes)).toEqual([1, 2])
        yield* fs.remove(path.join(root, "a.d", "b.wav.meta.json"))
        expect(Option.getOrThrow(yield* blobs.get("a/b.wav")).content_type).toBe(
          FileSystemBlobStore.unknownContentType
        )
        // a removal takes the bytes and the sidecar
        expect(yield* blobs.remove("a/b.wav")).toBe(true)
        expect(yield* listing(root)).toEqual(["a.d", path.join("a.d", "c.wav.blob.123.tmp")])
      })
    )
  )
})
