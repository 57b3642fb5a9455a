import { describe, expect, layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { Layer } from "effect"
import { BlobStore } from "../src/files/BlobStore.js"
import * as Fixtures from "./Fixtures.js"

/** A key no other test uses, so the contract runs against stores that already hold files. */
const freshKey = (name: string) =>
  Effect.map(Fixtures.unique(), (suffix) => `organizations/contract/${suffix}/${name}`)

const bytes = (...values: ReadonlyArray<number>) => new Uint8Array(values)

/**
 * The behaviour every file storage adapter must have, written once and run against each (in memory,
 * filesystem, S3-compatible).
 */
export const blobStoreContract = (name: string, store: Layer.Layer<BlobStore, unknown>) =>
  layer(store, { timeout: "60 seconds" })(`file storage contract: ${name}`, (it) => {
    describe("files", () => {
      it.effect("stores bytes and media type, and answers nothing for a missing key", () =>
        Effect.gen(function* () {
          const blobs = yield* BlobStore
          const key = yield* freshKey("recording.wav")
          expect(Option.isNone(yield* blobs.get(key))).toBe(true)
          yield* blobs.put(key, { bytes: bytes(0, 1, 2, 255), content_type: "audio/wav" })
          const blob = Option.getOrThrow(yield* blobs.get(key))
          expect(Array.from(blob.bytes)).toEqual([0, 1, 2, 255])
          expect(blob.content_type).toBe("audio/wav")
        })
      )

      it.effect("replaces a file written again under the same key", () =>
        Effect.gen(function* () {
          const blobs = yield* BlobStore
          const key = yield* freshKey("transcript.txt")
          yield* blobs.put(key, { bytes: bytes(1, 2, 3, 4, 5), content_type: "text/plain" })
          yield* blobs.put(key, { bytes: bytes(9), content_type: "text/plain; charset=utf-8" })
          expect(Option.getOrThrow(yield* blobs.get(key))).toEqual({
            bytes: bytes(9),
            content_type: "text/plain; charset=utf-8"
          })
        })
      )

      it.effect("keeps an empty file and files under keys that share a prefix apart", () =>
        Effect.gen(function* () {
          const blobs = yield* BlobStore
          const key = yield* freshKey("a")
          yield* blobs.put(key, { bytes: bytes(), content_type: "application/octet-stream" })
          yield* blobs.put(`${key}/b`, { bytes: bytes(2), content_type: "text/plain" })
          yield* blobs.put(`${key}.meta`, { bytes: bytes(3), content_type: "text/plain" })
          expect(Option.getOrThrow(yield* blobs.get(key)).bytes.length).toBe(0)
          expect(Array.from(Option.getOrThrow(yield* blobs.get(`${key}/b`)).bytes)).toEqual([2])
          expect(Array.from(Option.getOrThrow(yield* blobs.get(`${key}.meta`)).bytes)).toEqual([3])
        })
      )

      it.effect("hands out copies: changing bytes after put or get changes nothing stored", () =>
        Effect.gen(function* () {
          const blobs = yield* BlobStore
          const key = yield* freshKey("copy.bin")
          const written = bytes(1, 2, 3)
          yield* blobs.put(key, { bytes: written, content_type: "application/octet-stream" })
          written[0] = 42
          Option.getOrThrow(yield* blobs.get(key)).bytes[1] = 42
          expect(Array.from(Option.getOrThrow(yield* blobs.get(key)).bytes)).toEqual([1, 2, 3])
        })
      )

      it.effect("removes a file once: true when it was there, false after", () =>
        Effect.gen(function* () {
          const blobs = yield* BlobStore
          const key = yield* freshKey("gone.wav")
          expect(yield* blobs.remove(key)).toBe(false)
          yield* blobs.put(key, { bytes: bytes(7), content_type: "audio/wav" })
          expect(yield* blobs.remove(key)).toBe(true)
          expect(Option.isNone(yield* blobs.get(key))).toBe(true)
          expect(yield* blobs.remove(key)).toBe(false)
        })
      )

      it.effect("stores large files whole and takes concurrent writes of different keys", () =>
        Effect.gen(function* () {
          const blobs = yield* BlobStore
          const key = yield* freshKey("large.wav")
          const large = new Uint8Array(1024 * 1024 + 7)
          for (let i = 0; i < large.length; i++) large[i] = (i * 31) % 256
          const keys = Array.from({ length: 20 }, (_, i) => `${key}-${i}`)
          yield* Effect.forEach(
            keys,
            (k, i) => blobs.put(k, { bytes: i === 0 ? large : bytes(i), content_type: "audio/wav" }),
            { concurrency: "unbounded" }
          )
          const read = Option.getOrThrow(yield* blobs.get(keys[0]!)).bytes
          // compared in a loop: a deep equality over a megabyte is slow
          expect(read.length).toBe(large.length)
          expect(read.every((value, i) => value === large[i])).toBe(true)
          expect(Array.from(Option.getOrThrow(yield* blobs.get(keys[19]!)).bytes)).toEqual([19])
        })
      )
    })
  })
