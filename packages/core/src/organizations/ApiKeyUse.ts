import { Clock, Context, Duration, Effect, FiberSet, Layer } from "effect"
import type { ApiKey, ApiKeyId } from "./ApiKey.js"
import { ApiKeyStore } from "./ApiKeyStore.js"

/** How precise a key's `last_used_at` is: a use within this of the recorded one is not written. */
export const granularity = Duration.minutes(1)

/** The most keys one server remembers the last recorded use of (beyond it, it forgets the stale ones). */
export const maxRemembered = 10_000

/**
 * When keys were last used (`last_used_at`), recorded without a write per request: a server writes a key's
 * use at most once per `granularity`, in the background, and the request that used the key never waits
 * for the write (nor fails with it). The store skips the write when another server recorded a use within
 * the same minute, so `last_used_at` is the key's latest use to within a minute, whichever servers it
 * reached; a use in the last minute before a server stops may not be written.
 */
export class ApiKeyUse extends Context.Tag("@voice-agent-platform/core/ApiKeyUse")<
  ApiKeyUse,
  {
    /** Notes that the key was used now; answers at once, whatever happens to the write. */
    readonly note: (key: ApiKey) => Effect.Effect<void>
  }
>() {}

/**
 * The recorder over the key store. Its writes run in the layer's scope: they end with it. `note` has no
 * span of its own: it runs on every authenticated request and does nothing most of the time; the write,
 * when there is one, is the `ApiKeyUse.record` span.
 */
export const layer: Layer.Layer<ApiKeyUse, never, ApiKeyStore> = Layer.scoped(
  ApiKeyUse,
  Effect.gen(function* () {
    const keys = yield* ApiKeyStore
    const writes = yield* FiberSet.make()
    const granularityMillis = Duration.toMillis(granularity)
    // The last use this server recorded (or found recorded) of each key it has seen, epoch milliseconds.
    const recorded = new Map<ApiKeyId, number>()
    const forgetStale = (now: number) => {
      for (const [id, at] of recorded) if (now - at >= granularityMillis) recorded.delete(id)
      if (recorded.size >= maxRemembered) recorded.clear()
    }
    const record = (id: ApiKeyId, now: number) =>
      keys.recordUse(id, new Date(now), new Date(now - granularityMillis)).pipe(
        Effect.withSpan("ApiKeyUse.record", { captureStackTrace: false }),
        Effect.catchAllCause((cause) => Effect.logWarning("Recording an API key's use failed", cause))
      )
    return ApiKeyUse.of({
      // plain combinators, no generator: this runs on every authenticated request
      note: (key) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => {
          const last = recorded.get(key.id) ?? key.last_used_at?.getTime()
          if (last !== undefined && now - last < granularityMillis) return Effect.void
          if (recorded.size >= maxRemembered) forgetStale(now)
          recorded.set(key.id, now)
          return Effect.asVoid(FiberSet.run(writes, record(key.id, now)))
        })
    })
  })
)
