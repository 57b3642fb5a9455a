import { describe, expect, it } from "@effect/vitest"
import { BlobStore } from "@voice-agent-platform/core"
import { blobStoreContract } from "@voice-agent-platform/core/testing"
import { Cause, Effect, Exit, Layer, Option, Redacted } from "effect"
import * as S3BlobStore from "../src/S3BlobStore.js"
import * as S3Emulator from "./S3Emulator.js"

const settings = (emulator: S3Emulator.S3Emulator): S3BlobStore.S3Config => ({
  endpoint: emulator.endpoint,
  bucket: S3Emulator.bucket,
  region: S3Emulator.region,
  accessKeyId: S3Emulator.credentials.accessKeyId,
  secretAccessKey: S3Emulator.credentials.secretAccessKey
})

blobStoreContract(
  "S3 (emulated)",
  Layer.unwrapScoped(Effect.map(S3Emulator.start, (emulator) => S3BlobStore.layer(settings(emulator))))
)

/** Runs `body` with a store over a fresh emulator, and that emulator. */
const withStore = <A, E>(
  body: (blobs: BlobStore.BlobStore["Type"], emulator: S3Emulator.S3Emulator) => Effect.Effect<A, E>,
  overrides: Partial<S3BlobStore.S3Config> = {}
) =>
  Effect.gen(function* () {
    const emulator = yield* S3Emulator.start
    const blobs = yield* S3BlobStore.make({ ...settings(emulator), ...overrides })
    return yield* body(blobs, emulator)
  }).pipe(Effect.scoped)

describe("S3BlobStore", () => {
  it.effect("sends encoded keys under the bucket and prefix, and asks with HEAD before DELETE", () =>
    withStore(
      (blobs, emulator) =>
        Effect.gen(function* () {
          const key = "organizations/1/a b+c(1)ż.txt"
          yield* blobs.put(key, { bytes: new Uint8Array([1]), content_type: "text/plain" })
          expect(Option.getOrThrow(yield* blobs.get(key)).content_type).toBe("text/plain")
          expect(yield* blobs.remove(key)).toBe(true)
          expect(yield* blobs.remove(key)).toBe(false)
          const path = "/recordings/tenant-a/organizations/1/a%20b%2Bc%281%29%C5%BC.txt"
          expect(emulator.requests).toEqual([
            { method: "PUT", path },
            { method: "GET", path },
            { method: "HEAD", path },
            { method: "DELETE", path },
            { method: "HEAD", path }
          ])
        }),
      { prefix: "/tenant-a/" }
    )
  )

  it.effect("answers octet-stream for an object stored without a media type", () =>
    withStore((blobs, emulator) =>
      Effect.gen(function* () {
        yield* blobs.put("a/b", { bytes: new Uint8Array([5]), content_type: "audio/wav" })
        // an object written by another tool may come back without a Content-Type, or an empty one
        for (const contentType of [undefined, ""]) {
          emulator.objects.set("/recordings/a/b", { bytes: new Uint8Array([5]), contentType })
          expect(Option.getOrThrow(yield* blobs.get("a/b"))).toEqual({
            bytes: new Uint8Array([5]),
            content_type: "application/octet-stream"
          })
        }
      })
    )
  )

  it.effect("turns a refused signature into a defect naming the status and code, never the secret", () =>
    withStore(
      (blobs) =>
        Effect.gen(function* () {
          // HEAD answers carry no body, so `remove`'s defect has the status but no code, as with S3
          for (const [attempt, method, code] of [
            [
              blobs.put("a/b", { bytes: new Uint8Array([1]), content_type: "text/plain" }),
              "PUT",
              "SignatureDoesNotMatch"
            ],
            [blobs.get("a/b"), "GET", "SignatureDoesNotMatch"],
            [blobs.remove("a/b"), "HEAD", undefined]
          ] as const) {
            const exit = yield* Effect.exit(attempt as Effect.Effect<unknown>)
            expect(Exit.isFailure(exit)).toBe(true)
            if (Exit.isSuccess(exit)) continue
            const defect = Option.getOrThrow(Cause.dieOption(exit.cause))
            expect(defect).toBeInstanceOf(S3BlobStore.S3RequestError)
            expect({ ...(defect as S3BlobStore.S3RequestError) }).toEqual({
              _tag: "S3RequestError",
              method,
              key: "a/b",
              status: 403,
              code
            })
            expect(Cause.pretty(exit.cause)).not.toContain("wrong-secret-value")
            expect(JSON.stringify(defect)).not.toContain("wrong-secret-value")
          }
        }),
      { secretAccessKey: Redacted.make("wrong-secret-value") }
    )
  )

  it.effect("refuses keys that a URL would rewrite, and endpoints that are not origins", () =>
    withStore((blobs, emulator) =>
      Effect.gen(function* () {
        const exit = yield* Effect.exit(blobs.put("a/../b", { bytes: new Uint8Array(1), content_type: "x" }))
        expect(String(exit)).toContain("InvalidBlobKey")
        expect(emulator.requests).toEqual([])
        for (const endpoint of ["not a url", "ftp://example.com", "http://127.0.0.1:9000/base"]) {
          const made = yield* Effect.exit(S3BlobStore.make({ ...settings(emulator), endpoint }))
          expect(String(made), endpoint).toContain("InvalidS3Config")
        }
      })
    )
  )
})
