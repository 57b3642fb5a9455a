import {
  EmbeddedModel,
  InMemory,
  MemoryTelephony,
  PriceListConfig,
  RunStore,
  SecureRandom,
  Services,
  type Stores
} from "@voice-agent-platform/core"
import * as MemoryBlobStore from "@voice-agent-platform/core/memory/MemoryBlobStore.js"
import { Deferred, Effect, FiberId, Layer } from "effect"
import { serverOver, storesOverSql } from "./TestServer.js"

/**
 * A test server whose run store's list (`listEncoded`, the one the API's runs list reads) reads the
 * database, then waits while `hold` holds it, as a slow
 * database's answer would: a read that took its rows before a write still answers after the write; and
 * whose lists can be made to die after reading, as a broken storage would. For the tests of reads shared
 * between requests.
 */
export const heldListsServer = <E>(stores: Layer.Layer<Stores.Stores, E>) => {
  let gate: Deferred.Deferred<void> | undefined
  let lists = 0
  let breaking = false
  const held = Layer.effect(
    RunStore.RunStore,
    Effect.map(RunStore.RunStore, (store) =>
      RunStore.RunStore.of({
        ...store,
        listEncoded: (...args) =>
          Effect.suspend(() => {
            const broken = breaking
            return Effect.tap(store.listEncoded(...args), () => {
              lists++
              return Effect.zipRight(
                gate === undefined ? Effect.void : Deferred.await(gate),
                broken ? Effect.die(new Error("the run store broke")) : Effect.void
              )
            })
          })
      })
    )
  ).pipe(Layer.provide(stores))
  const engine = Services.layer.pipe(
    Layer.provideMerge(
      Layer.mergeAll(
        Layer.merge(stores, held),
        MemoryBlobStore.layer,
        MemoryTelephony.layer,
        EmbeddedModel.layer,
        SecureRandom.layerWebCrypto,
        PriceListConfig.layerDefault
      )
    )
  )
  return {
    server: serverOver(engine),
    /** From now on, every list waits after its read until `release`. */
    hold: () => {
      gate = Deferred.unsafeMake<void>(FiberId.none)
    },
    /** Lets every held list answer; the lists after this one are not held. */
    release: Effect.suspend(() => {
      const open = gate
      gate = undefined
      return open === undefined ? Effect.void : Deferred.succeed(open, undefined)
    }),
    /** Whether the lists that start from now on die (a storage defect) once they have read. */
    breakLists: (on: boolean) => {
      breaking = on
    },
    /** Back to no list held or broken (after each test: one that failed leaves none for the next). */
    reset: () => {
      if (gate !== undefined) Deferred.unsafeDone(gate, Effect.void)
      gate = undefined
      breaking = false
    },
    /** How many lists read the store so far. */
    lists: () => lists
  }
}

/** The two storages' stores, for `heldListsServer`. */
export const storages = [
  ["in-memory", InMemory.layerStores],
  ["SQL (embedded PostgreSQL)", storesOverSql]
] as const
