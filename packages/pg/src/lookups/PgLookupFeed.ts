import { Duration, Effect, Layer, Schedule } from "effect"
import pg from "pg"
import { channel, everyOrganization, LookupCache, Lookups } from "./LookupCache.js"
import { fences } from "./LookupFences.js"

/**
 * How often an idle listening connection is asked to answer, and how long any of its answers may take
 * (for a fence, counted from the moment the oldest lookup waiting on it arrived: `fences`).
 */
export const heartbeat = { every: Duration.seconds(5), deadline: Duration.seconds(2) } as const

/** How long to wait before connecting again after the listening connection was lost. */
const reconnectAfter = Duration.seconds(1)

/**
 * One listening session: a connection of its own, `LISTEN vap_lookups`, the cache live until the
 * connection fails, ends or misses a heartbeat; then the cache is off (every lookup goes to the database)
 * until the next session is listening.
 */
/** The listening session's fence and a way to end it, while there is one. */
interface Current {
  fence: (() => Promise<boolean>) | null
  end: (() => void) | null
}

const session = (config: pg.ClientConfig, cache: LookupCache, current: Current) =>
  Effect.acquireUseRelease(
    Effect.tryPromise(async () => {
      const client = new pg.Client(config)
      client.on("error", () => undefined)
      client.on("notification", (message) => {
        if (message.channel === channel) cache.invalidate(message.payload ?? everyOrganization)
      })
      try {
        await client.connect()
        await client.query(`LISTEN ${channel}`)
        return client
      } catch (error) {
        await client.end().catch(() => undefined)
        throw error
      }
    }),
    (client) =>
      Effect.zipRight(
        Effect.sync(() => {
          cache.setLive(true)
          current.fence = fences(client, heartbeat.deadline)
          current.end = () => void client.end().catch(() => undefined)
        }),
        Effect.raceFirst(
          // The connection ends or fails: the session is over.
          Effect.async<void>((resume) => {
            const over = () => resume(Effect.void)
            client.once("error", over)
            client.once("end", over)
            return Effect.sync(() => {
              client.off("error", over)
              client.off("end", over)
            })
          }),
          // It stops answering (a failure or no answer within the deadline): over too.
          Effect.tryPromise(() => client.query("SELECT 1")).pipe(
            Effect.timeoutFail({ duration: heartbeat.deadline, onTimeout: () => "no answer" }),
            Effect.repeat(Schedule.spaced(heartbeat.every)),
            Effect.ignore
          )
        )
      ),
    (client) =>
      Effect.sync(() => {
        current.fence = null
        current.end = null
        cache.setLive(false)
      }).pipe(
        Effect.zipRight(
          Effect.promise(() => client.end().catch(() => undefined)).pipe(Effect.timeout("1 second"))
        ),
        Effect.ignore
      )
  ).pipe(Effect.ignore)

/**
 * The lookup cache of a server over a PostgreSQL server, fed by its own listening connection (see
 * `LookupCache`), with its fence (`fences`): a lookup uses the cache only once a round trip on that
 * connection, sent after the lookup began, has answered within the heartbeat deadline. The cache starts
 * off and turns on once the connection listens; start-up does not wait for it.
 */
export const layer = (config: pg.ClientConfig): Layer.Layer<Lookups> =>
  Layer.scoped(
    Lookups,
    Effect.gen(function* () {
      const cache = new LookupCache()
      const current: Current = { fence: null, end: null }
      yield* Effect.forkScoped(
        Effect.forever(Effect.zipRight(session(config, cache, current), Effect.sleep(reconnectAfter)))
      )
      // A fence that fails or takes longer than the deadline ends the session at once: every lookup after
      // it goes to the database instead of waiting for a connection that does not answer.
      const fence = Effect.suspend(() => {
        const fenceNow = current.fence
        if (fenceNow === null || !cache.isLive) return Effect.succeed(false)
        // the deadline is kept by `fences` (one timer per round trip, from its oldest lookup's arrival)
        return Effect.promise(fenceNow).pipe(
          Effect.tap((passed) =>
            Effect.sync(() => {
              if (!passed && current.fence === fenceNow) {
                current.fence = null
                cache.setLive(false)
                current.end?.()
              }
            })
          )
        )
      })
      return { cache, fence }
    })
  )
