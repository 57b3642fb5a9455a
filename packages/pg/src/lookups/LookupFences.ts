import { Duration } from "effect"

/** The one thing a fence needs of the listening connection: a statement's round trip. */
export interface RoundTrips {
  readonly query: (text: string) => Promise<unknown>
}

/**
 * Round trips on the listening connection, shared by every caller that arrived before one is sent.
 *
 * PostgreSQL sends a listening session the notifications of every transaction that committed before a
 * statement of that session started, before that statement's answer (a committing backend signals the
 * listeners before its client hears of the commit, and a backend hands pending notifications to its
 * client before it reports ready for the next statement). So once a `SELECT 1` sent after a lookup began
 * has answered, every change committed before the lookup began has reached the cache. A lookup that
 * arrives while a round trip is under way waits for the next one, sent when that one answers.
 *
 * `deadline` bounds each lookup's whole wait, not only its round trip: a batch's round trip must answer
 * within `deadline` of the moment its oldest lookup arrived (which may have waited for the round trip
 * before), else it fails, and so do every lookup waiting and every fence after it (`broken`: the caller
 * drops the connection).
 */
export const fences = (client: RoundTrips, deadline: Duration.DurationInput) => {
  const deadlineMillis = Duration.toMillis(deadline)
  let sending = false
  // A round trip failed or missed the deadline: every fence from now on fails at once.
  let broken = false
  let waiting: Array<(passed: boolean) => void> = []
  // When the oldest lookup in `waiting` arrived.
  let oldest = 0
  const send = () => {
    sending = true
    const batch = waiting
    const since = oldest
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
    const timer = setTimeout(() => done(false), Math.max(0, since + deadlineMillis - Date.now()))
    client.query("SELECT 1").then(
      () => done(true),
      () => done(false)
    )
  }
  return () =>
    new Promise<boolean>((resolve) => {
      if (broken) return resolve(false)
      if (waiting.length === 0) oldest = Date.now()
      waiting.push(resolve)
      if (sending) return
      // Sent once this turn of the event loop is over: the lookups of every request read in this turn
      // share one round trip (a write and a read on the connection) instead of one each or two.
      sending = true
      setImmediate(send)
    })
}
