import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Layer, Option, TestClock } from "effect"
import { BlobStore } from "../../src/files/BlobStore.js"
import { DocumentStore } from "../../src/knowledge-base/DocumentStore.js"
import {
  blobKey,
  defaultProcessing,
  KnowledgeBase,
  layerWith
} from "../../src/knowledge-base/KnowledgeBase.js"
import * as Housekeeping from "../../src/housekeeping/Housekeeping.js"
import { InMemory } from "../../src/index.js"
import * as MemoryBlobStore from "../../src/memory/MemoryBlobStore.js"
import * as SecureRandom from "../../src/randomness/SecureRandom.js"
import * as Fixtures from "../../testing/Fixtures.js"

const text = (content: string) => new TextEncoder().encode(content)

/** Lets the processors' fibers run until `done` holds (or gives up after many turns). */
const until = (done: () => boolean, turns = 10_000) =>
  Effect.gen(function* () {
    for (let turn = 0; turn < turns && !done(); turn++) yield* Effect.yieldNow()
  })

/**
 * A blob store whose reads wait at a gate while counting how many wait at once: a processor reads the
 * document's file first, so the count is the number of documents being processed.
 */
const gatedBlobs = Effect.gen(function* () {
  const gate = yield* Deferred.make<void>()
  const reads = { active: 0, most: 0, total: 0 }
  const layer = Layer.effect(
    BlobStore,
    Effect.map(BlobStore, (blobs) =>
      BlobStore.of({
        ...blobs,
        get: (key) =>
          Effect.gen(function* () {
            reads.active++
            reads.total++
            reads.most = Math.max(reads.most, reads.active)
            yield* Deferred.await(gate)
            reads.active--
            return yield* blobs.get(key)
          })
      })
    )
  ).pipe(Layer.provide(MemoryBlobStore.layer))
  return { gate, reads, layer }
})

describe("knowledge-base processing queue", () => {
  it.effect("processes at most `concurrency` documents at once; the rest wait pending, none is lost", () =>
    Effect.gen(function* () {
      const { gate, reads, layer } = yield* gatedBlobs
      const test = Effect.gen(function* () {
        const kb = yield* KnowledgeBase
        const org = yield* Fixtures.organization()
        const uploaded = yield* Effect.forEach(
          Array.from({ length: 8 }, (_, i) => i),
          (i) =>
            kb.upload(org.id, {
              filename: `note-${i}.txt`,
              mime_type: "text/plain",
              bytes: text(`note ${i}`)
            })
        )
        yield* until(() => reads.active === 2)
        // and a while longer: nobody else starts
        yield* until(() => false, 500)
        expect(reads.most).toBe(2)
        const statuses = yield* Effect.forEach(uploaded, (d) =>
          Effect.map(kb.get(org.id, d.id), (r) => r.processing_status)
        )
        expect(statuses.filter((s) => s === "processing")).toHaveLength(2)
        expect(statuses.filter((s) => s === "pending")).toHaveLength(6)

        yield* Deferred.succeed(gate, undefined)
        yield* kb.awaitIdle
        const done = yield* Effect.forEach(uploaded, (d) => kb.get(org.id, d.id))
        expect(done.map((d) => d.processing_status)).toEqual(Array(8).fill("completed"))
        expect(reads).toMatchObject({ most: 2, total: 8 })
      })
      yield* test.pipe(
        Effect.provide(
          layerWith({ processing: { concurrency: 2 } }).pipe(
            Layer.provideMerge(Layer.mergeAll(InMemory.layerStores, layer, SecureRandom.layerWebCrypto))
          )
        )
      )
    })
  )

  it.effect(
    "picks up, when it starts, documents left pending or stuck processing by an earlier process",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(Fixtures.epoch.getTime() + 3600_000)
        const store = yield* DocumentStore
        const blobs = yield* BlobStore
        const org = yield* Fixtures.organization()
        const suffix = yield* Fixtures.unique()
        const left = (name: string, status: "pending" | "processing", at: Date) =>
          Effect.gen(function* () {
            const key = blobKey(org.id, `${suffix}-${name}`)
            yield* blobs.put(key, { bytes: text(`left ${name}`), content_type: "text/plain" })
            return yield* store.insert(
              Fixtures.newDocument(org.id, `${suffix}-${name}`, { processing_status: status, blob_key: key }),
              at
            )
          })
        const staleAfter = defaultProcessing.staleAfterSeconds * 1000
        const pending = yield* left("pending", "pending", Fixtures.epoch)
        // its processor died an hour ago
        const stuck = yield* left("stuck", "processing", Fixtures.epoch)
        // another processor took this one a moment ago and is still at it
        const busy = yield* left(
          "busy",
          "processing",
          new Date(Fixtures.epoch.getTime() + 3600_000 - staleAfter + 1000)
        )

        // the knowledge base starts (as after a restart) over what is stored
        const afterStart = Effect.gen(function* () {
          const kb = yield* KnowledgeBase
          yield* kb.awaitIdle
          const status = (id: typeof pending.id) =>
            Effect.map(store.find(org.id, { _tag: "Id", id }), (d) => Option.getOrThrow(d).processing_status)
          expect(yield* status(pending.id)).toBe("completed")
          expect(yield* status(stuck.id)).toBe("completed")
          expect(yield* status(busy.id)).toBe("processing")
        })
        yield* afterStart.pipe(Effect.provide(layerWith()))
      }).pipe(
        Effect.provide(
          Layer.mergeAll(InMemory.layerStores, MemoryBlobStore.layer, SecureRandom.layerWebCrypto)
        )
      )
  )

  it.effect("takes a document another server left pending when woken by the housekeeping pass", () =>
    Effect.gen(function* () {
      const kb = yield* KnowledgeBase
      const store = yield* DocumentStore
      const blobs = yield* BlobStore
      const org = yield* Fixtures.organization()
      const suffix = yield* Fixtures.unique()
      yield* kb.awaitIdle
      const key = blobKey(org.id, suffix)
      yield* blobs.put(key, { bytes: text("uploaded elsewhere"), content_type: "text/plain" })
      const document = yield* store.insert(
        Fixtures.newDocument(org.id, suffix, { blob_key: key }),
        Fixtures.epoch
      )
      yield* until(() => false, 200)
      expect((yield* kb.get(org.id, document.id)).processing_status).toBe("pending")
      yield* Housekeeping.pass
      yield* kb.awaitIdle
      expect((yield* kb.get(org.id, document.id)).processing_status).toBe("completed")
    }).pipe(Effect.provide(InMemory.layer))
  )

  it.effect(
    "keeps processing after the store failed once: the failure ends a drain, not the processors",
    () =>
      Effect.gen(function* () {
        const kb = yield* KnowledgeBase
        const org = yield* Fixtures.organization()
        yield* kb.awaitIdle
        const document = yield* kb.upload(org.id, {
          filename: "after.txt",
          mime_type: "text/plain",
          bytes: text("after")
        })
        yield* kb.awaitIdle
        expect((yield* kb.get(org.id, document.id)).processing_status).toBe("completed")
      }).pipe(
        Effect.provide(
          layerWith({ processing: { concurrency: 1 } }).pipe(
            Layer.provideMerge(
              Layer.effect(
                DocumentStore,
                Effect.map(DocumentStore, (store) => {
                  let claims = 0
                  return DocumentStore.of({
                    ...store,
                    // the first claim meets a lost database
                    claimNext: (now, staleBefore) =>
                      claims++ === 0
                        ? Effect.dieMessage("connection lost")
                        : store.claimNext(now, staleBefore)
                  })
                })
              ).pipe(
                Layer.provideMerge(
                  Layer.mergeAll(InMemory.layerStores, MemoryBlobStore.layer, SecureRandom.layerWebCrypto)
                )
              )
            )
          )
        )
      )
  )
})
