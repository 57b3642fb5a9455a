import { describe, expect, it } from "@effect/vitest"
import { Context, Deferred, Effect, Layer, Queue, TestClock } from "effect"
import type { ApiKey } from "../../src/organizations/ApiKey.js"
import { ApiKeyId } from "../../src/organizations/ApiKey.js"
import { ApiKeyStore } from "../../src/organizations/ApiKeyStore.js"
import * as ApiKeyUse from "../../src/organizations/ApiKeyUse.js"
import { OrganizationId } from "../../src/organizations/Organization.js"

/** A key as a lookup answers it. */
const keyOf = (id: number, lastUsedAt: Date | null = null): ApiKey => ({
  id: ApiKeyId.make(id),
  organization_id: OrganizationId.make(1),
  key_hash: `hash-${id}`,
  key_prefix: "vap_abcd",
  name: `Key ${id}`,
  created_at: new Date(0),
  last_used_at: lastUsedAt,
  revoked_at: null
})

/** A write the recorder asked the store for. */
interface Write {
  readonly id: number
  readonly at: number
  readonly since: number
}

/**
 * The recorder over a store that reports every `recordUse` on a queue as it begins and then does what
 * `then` says (succeed, never answer, fail); the store's other operations are not used.
 */
const recorderOver = (then: (write: Write) => Effect.Effect<void>) =>
  Effect.gen(function* () {
    const writes = yield* Queue.unbounded<Write>()
    const store = Layer.succeed(ApiKeyStore, {
      recordUse: (id, at, since) => {
        const write = { id, at: at.getTime(), since: since.getTime() }
        return Effect.zipRight(Queue.offer(writes, write), then(write))
      }
    } as ApiKeyStore["Type"])
    const use = yield* Layer.build(ApiKeyUse.layer.pipe(Layer.provide(store)))
    return { note: Context.get(use, ApiKeyUse.ApiKeyUse).note, writes }
  })

/**
 * The writes begun up to now: a last use of a key never seen before is noted and its write awaited; the
 * recorder's writes begin in the order they were noted, so every earlier one has begun by then.
 */
const writesSoFar = (
  recorder: { readonly note: ApiKeyUse.ApiKeyUse["Type"]["note"]; readonly writes: Queue.Queue<Write> },
  sentinel: number
) =>
  Effect.gen(function* () {
    yield* recorder.note(keyOf(sentinel))
    const taken: Array<Write> = []
    for (;;) {
      const write = yield* Queue.take(recorder.writes)
      if (write.id === sentinel) return taken
      taken.push(write)
    }
  })

describe("ApiKeyUse", () => {
  it.scoped("writes a key's use at most once a minute, and not again within a minute of a recorded one", () =>
    Effect.gen(function* () {
      const recorder = yield* recorderOver(() => Effect.void)
      yield* TestClock.setTime(1_000_000)
      yield* recorder.note(keyOf(1))
      yield* recorder.note(keyOf(1))
      yield* TestClock.adjust("59 seconds")
      yield* recorder.note(keyOf(1))
      // a key whose lookup says it was used 30 s ago is not written either
      yield* recorder.note(keyOf(2, new Date(1_059_000 - 30_000)))
      expect(yield* writesSoFar(recorder, 100)).toEqual([{ id: 1, at: 1_000_000, since: 940_000 }])
      yield* TestClock.adjust("1 second")
      yield* recorder.note(keyOf(1))
      expect(yield* writesSoFar(recorder, 101)).toEqual([{ id: 1, at: 1_060_000, since: 1_000_000 }])
      yield* TestClock.adjust("30 seconds")
      yield* recorder.note(keyOf(2, new Date(1_059_000 - 30_000)))
      expect(yield* writesSoFar(recorder, 102)).toEqual([{ id: 2, at: 1_090_000, since: 1_030_000 }])
    })
  )

  it.scoped("never makes a request wait for the write, nor fail with it", () =>
    Effect.gen(function* () {
      const never = yield* Deferred.make<void>()
      const stuck = yield* recorderOver(() => Deferred.await(never))
      yield* stuck.note(keyOf(1))
      expect((yield* Queue.take(stuck.writes)).id).toBe(1)
      // the write above never answers, and the note did answer
      yield* stuck.note(keyOf(2))
      expect((yield* Queue.take(stuck.writes)).id).toBe(2)

      const failing = yield* recorderOver(() => Effect.dieMessage("the database is gone"))
      yield* failing.note(keyOf(3))
      expect(yield* writesSoFar(failing, 200)).toEqual([{ id: 3, at: 0, since: -60_000 }])
      // a failed write is not retried within the minute: the note is a hint, not a promise
      yield* failing.note(keyOf(3))
      expect(yield* writesSoFar(failing, 201)).toEqual([])
    })
  )
})
