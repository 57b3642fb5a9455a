import { Effect, Layer, Option } from "effect"
import type { Blob } from "../files/BlobStore.js"
import { BlobStore } from "../files/BlobStore.js"

/** Files in process memory; for tests and for embedding without a disk. */
export const layer: Layer.Layer<BlobStore> = Layer.sync(BlobStore, () => {
  const blobs = new Map<string, Blob>()
  return {
    put: (key, blob) => Effect.sync(() => void blobs.set(key, { ...blob, bytes: blob.bytes.slice() })),
    get: (key) =>
      Effect.sync(() =>
        Option.map(Option.fromNullable(blobs.get(key)), (blob) => ({ ...blob, bytes: blob.bytes.slice() }))
      ),
    remove: (key) => Effect.sync(() => blobs.delete(key))
  }
})
