import { Duration, Effect, Layer, Schedule } from "effect"
import pg from "pg"
import { channel, everyOrganization, LookupCache, Lookups } from "./LookupCache.js"

/** How often an idle listening connection is asked to answer, and how long any of its answers may take. */
export const heartbeat = { every: Duration.seconds(5), deadline: Duration.seconds(2) } as const

/** How long to wait before connecting again after the listening connection was lost. */
const reconnectAfter = Duration.seconds(1)

/**
 * Round trips on the listening connection, shared by every caller that arrived before one is sent.
 *
 * PostgreSQL sends a listening session the notifications of every transaction that committed before a
 * statement of that session started, before that statement's answer (a committing backend signals the
 * listeners before its client hears of the commit, and a backend hands pending notifications to its
 * client before it reports ready for the next statement). So once a `SELECT 1` sent after a lookup began
 * has answered, every change committed before the lookup began has reached the cache.
 */
const fences = (client: pg.Client) => {
  const deadlineMillis = Duration.toMillis(heartbeat.deadline)
  let sending = false
  // A round trip failed or missed the deadline: every fence from now on fails at once.
  let broken = false
  let waiting: Array<(passed: boolean) => void> = []
  const send = () => {
    sending = true
    const batch = waiting
    waiting = []
    let settled = false
    const done = (passed: boolean) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      for (const resolve of batch) resolve(passed)
      if (!passed) {
        broken = true
        const left = waiting
        waiting = []
        for (const resolve of left) resolve(false)
        return
      }
      sending = false
      if (waiting.length > 0) send()
    }
    // One timer for the whole round trip, not one per lookup waiting on it.
    const timer = setTimeout(() => done(false), deadlineMillis)
    client.query("SELECT 1").then(
      () => done(true),
      () => done(false)
    )
  }
  return () =>
    new Promise<boolean>((resolve) => {
      if (broken) return resolve(false)
      waiting.push(resolve)
      if (sending) return
      // Sent once this turn of the event loop is over: the lookups of every request read in this turn
      // share one round trip (a write and a read on the connection) instead of one each or two.
      sending = true
      setImmediate(send)
    })
}

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
          current.fence = fences(client)
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
        // the round trip's deadline is kept by `fences` (one timer per round trip)
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
