import { FileSystem, Path } from "@effect/platform"
import type { PlatformError } from "@effect/platform/Error"
import { BlobStore } from "@voice-agent-platform/core"
import { Data, Effect, Either, Layer, Option, Schema } from "effect"

/** A key that cannot name a file under the root: empty, absolute, with `.`/`..`, a backslash or NUL. */
export class InvalidBlobKey extends Data.TaggedError("InvalidBlobKey")<{
  readonly key: string
  readonly reason: string
}> {
  override get message() {
    return `Invalid file key ${JSON.stringify(this.key)}: ${this.reason}`
  }
}

/** Where a key's bytes and media type live, relative to the root. */
export interface BlobPaths {
  /** Directories, each segment suffixed `.d`, so a file `a` and a file `a/b` never collide. */
  readonly directory: ReadonlyArray<string>
  readonly data: string
  readonly meta: string
}

/**
 * Maps a key such as `organizations/1/runs/42/recording.wav` to paths under the root. Suffixes keep
 * directories (`.d`), bytes (`.blob`), media types (`.meta.json`) and temporary files (`.tmp`) apart.
 */
export const paths = (key: string): Either.Either<BlobPaths, InvalidBlobKey> => {
  const invalid = (reason: string) => Either.left(new InvalidBlobKey({ key, reason }))
  if (key.length === 0) return invalid("it is empty")
  if (key.includes("\0")) return invalid("it contains NUL")
  if (key.includes("\\")) return invalid("it contains a backslash")
  if (key.startsWith("/")) return invalid("it is absolute")
  const segments = key.split("/")
  if (segments.some((s) => s === "" || s === "." || s === "..")) {
    return invalid("every segment must be a name (no empty, `.` or `..` segments)")
  }
  const name = segments[segments.length - 1]!
  return Either.right({
    directory: segments.slice(0, -1).map((s) => `${s}.d`),
    data: `${name}.blob`,
    meta: `${name}.meta.json`
  })
}

const Meta = Schema.parseJson(Schema.Struct({ content_type: Schema.String }))

/** The media type given to bytes whose sidecar is missing. */
export const unknownContentType = "application/octet-stream"

const isNotFound = (error: PlatformError) => error._tag === "SystemError" && error.reason === "NotFound"

/**
 * Files on disk under `root`. Every write goes to a temporary file that is renamed into place, so a
 * crash never leaves a half-written file: a reader sees the old file or the new one. The media type is
 * kept beside the bytes in a small JSON sidecar, written first. Storage failures are defects: the port
 * has no error channel, and a full or read-only disk is an operator's problem, not a caller's.
 */
export const make = (root: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path

    const locate = (key: string) =>
      Either.match(paths(key), {
        onLeft: (error) => Effect.die(error),
        onRight: (p) => {
          const directory = path.join(root, ...p.directory)
          return Effect.succeed({
            directory,
            data: path.join(directory, p.data),
            meta: path.join(directory, p.meta)
          })
        }
      })

    /** Writes `bytes` to `target` through a temporary file in the same directory and a rename. */
    const writeAtomically = (target: string, bytes: Uint8Array) =>
      Effect.gen(function* () {
        const temporary = `${target}.${crypto.randomUUID()}.tmp`
        yield* fs.writeFile(temporary, bytes).pipe(
          Effect.zipRight(fs.rename(temporary, target)),
          Effect.onError(() => Effect.ignore(fs.remove(temporary)))
        )
      })

    const readOptional = <A>(read: Effect.Effect<A, PlatformError>) =>
      read.pipe(
        Effect.map(Option.some),
        Effect.catchIf(isNotFound, () => Effect.succeed(Option.none<A>()))
      )

    const removeOptional = (file: string) =>
      fs.remove(file).pipe(
        Effect.as(true),
        Effect.catchIf(isNotFound, () => Effect.succeed(false))
      )

    return BlobStore.BlobStore.of({
      put: (key, blob) =>
        Effect.gen(function* () {
          const at = yield* locate(key)
          yield* fs.makeDirectory(at.directory, { recursive: true })
          const meta = yield* Schema.encode(Meta)({ content_type: blob.content_type })
          yield* writeAtomically(at.meta, new TextEncoder().encode(meta))
          yield* writeAtomically(at.data, blob.bytes)
        }).pipe(Effect.orDie),
      get: (key) =>
        Effect.gen(function* () {
          const at = yield* locate(key)
          const bytes = yield* readOptional(fs.readFile(at.data))
          if (Option.isNone(bytes)) return Option.none()
          const meta = yield* readOptional(fs.readFileString(at.meta))
          const contentType = Option.match(meta, {
            onNone: () => unknownContentType,
            onSome: (text) =>
              Option.match(Schema.decodeOption(Meta)(text), {
                onNone: () => unknownContentType,
                onSome: (m) => m.content_type
              })
          })
          // A plain Uint8Array, not the platform's Buffer subclass.
          const plain = new Uint8Array(bytes.value.buffer, bytes.value.byteOffset, bytes.value.byteLength)
          return Option.some({ bytes: plain, content_type: contentType })
        }).pipe(Effect.orDie),
      remove: (key) =>
        Effect.gen(function* () {
          const at = yield* locate(key)
          const existed = yield* removeOptional(at.data)
          yield* removeOptional(at.meta)
          return existed
        }).pipe(Effect.orDie)
    })
  })

/** Files under `root` (created when missing), over the platform's file system. */
export const layer = (
  root: string
): Layer.Layer<BlobStore.BlobStore, never, FileSystem.FileSystem | Path.Path> =>
  Layer.effect(BlobStore.BlobStore, make(root))
