import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { fences } from "../../src/lookups/LookupFences.js"

/** A connection whose round trips answer (or fail) only when the test says so. */
const fakeClient = () => {
  const trips: Array<{ readonly answer: () => void; readonly fail: () => void }> = []
  return {
    trips,
    query: (_text: string) =>
      new Promise<unknown>((resolve, reject) => {
        trips.push({ answer: () => resolve([]), fail: () => reject(new Error("connection lost")) })
      })
  }
}

/** A fence's promise, with its outcome readable once settled. */
const watch = (promise: Promise<boolean>) => {
  const seen: { outcome?: boolean } = {}
  void promise.then((passed) => (seen.outcome = passed))
  return seen
}

/** Runs the event loop's queued turns (setImmediate, promise callbacks) under fake timers. */
const turn = () => vi.advanceTimersByTimeAsync(0)

describe("fences: round trips on the listening connection", () => {
  beforeEach(() => void vi.useFakeTimers())
  afterEach(() => void vi.useRealTimers())

  it("sends one round trip for every lookup of one turn, and passes them all when it answers", async () => {
    const client = fakeClient()
    const fence = fences(client, 2000)
    const lookups = [watch(fence()), watch(fence()), watch(fence())]
    await turn()
    expect(client.trips).toHaveLength(1)
    expect(lookups.map((seen) => seen.outcome)).toEqual([undefined, undefined, undefined])
    client.trips[0]!.answer()
    await turn()
    expect(lookups.map((seen) => seen.outcome)).toEqual([true, true, true])
  })

  it("makes a lookup that arrives during a round trip wait for the next one", async () => {
    const client = fakeClient()
    const fence = fences(client, 2000)
    const first = watch(fence())
    await turn()
    const second = watch(fence())
    await turn()
    expect(client.trips).toHaveLength(1)
    client.trips[0]!.answer()
    await turn()
    // the round trip sent before the second lookup began does not answer it
    expect(first.outcome).toBe(true)
    expect(second.outcome).toBeUndefined()
    expect(client.trips).toHaveLength(2)
    client.trips[1]!.answer()
    await turn()
    expect(second.outcome).toBe(true)
  })

  it("fails every waiting lookup and every later fence at once when a round trip is late", async () => {
    const client = fakeClient()
    const fence = fences(client, 2000)
    const first = watch(fence())
    await turn()
    await vi.advanceTimersByTimeAsync(1500)
    const second = watch(fence())
    await vi.advanceTimersByTimeAsync(499)
    expect(first.outcome).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    expect(first.outcome).toBe(false)
    expect(second.outcome).toBe(false)
    // broken: a later fence fails without a round trip, and a late answer changes nothing
    client.trips[0]!.answer()
    const later = watch(fence())
    await turn()
    expect(later.outcome).toBe(false)
    expect(client.trips).toHaveLength(1)
  })

  it("fails every waiting lookup and every later fence when a round trip fails", async () => {
    const client = fakeClient()
    const fence = fences(client, 2000)
    const first = watch(fence())
    await turn()
    const second = watch(fence())
    client.trips[0]!.fail()
    await turn()
    expect([first.outcome, second.outcome]).toEqual([false, false])
    const later = watch(fence())
    await turn()
    expect(later.outcome).toBe(false)
    expect(client.trips).toHaveLength(1)
  })

  it("bounds a lookup's whole wait by the deadline, from when it arrived, not from its round trip", async () => {
    const client = fakeClient()
    const fence = fences(client, 2000)
    watch(fence())
    await turn()
    await vi.advanceTimersByTimeAsync(1500)
    const second = watch(fence())
    await vi.advanceTimersByTimeAsync(400)
    client.trips[0]!.answer()
    await turn()
    // the second lookup's round trip was sent 400 ms after it arrived: it has 1600 ms left, not 2000
    expect(client.trips).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(1599)
    expect(second.outcome).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    expect(second.outcome).toBe(false)
  })
})
