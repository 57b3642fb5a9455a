import { Context, type Effect, type Option } from "effect"

/** A stored file's bytes and media type. */
export interface Blob {
  readonly bytes: Uint8Array
  readonly content_type: string
}

/**
 * Where recordings, transcripts and documents live. Keys are paths such as
 * `organizations/1/runs/42/transcript.txt`; the API never exposes them, only signed links.
 */
export class BlobStore extends Context.Tag("@voice-agent-platform/core/BlobStore")<
  BlobStore,
  {
    readonly put: (key: string, blob: Blob) => Effect.Effect<void>
    readonly get: (key: string) => Effect.Effect<Option.Option<Blob>>
    /** False when there was nothing to remove. */
    readonly remove: (key: string) => Effect.Effect<boolean>
  }
>() {}
