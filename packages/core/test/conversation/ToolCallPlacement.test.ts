import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as ToolCallPlacement from "../../src/conversation/ToolCallPlacement.js"

interface Said {
  readonly role: "user" | "assistant"
  readonly at: number
  readonly id: string
}
interface Call {
  readonly call: string
  readonly at: number
}

const u = (at: number, id = `u${at}`): Said => ({ role: "user", at, id })
const a = (at: number, id = `a${at}`): Said => ({ role: "assistant", at, id })
const c = (at: number, call = `c${at}`): Call => ({ call, at })

const interleave = (said: ReadonlyArray<Said>, calls: ReadonlyArray<Call>) =>
  ToolCallPlacement.interleave(said, calls, {
    timeOfSaid: (item) => item.at,
    timeOfCall: (item) => item.at,
    isUser: (item) => item.role === "user"
  })
const label = (items: ReadonlyArray<Said | Call>) => items.map((item) => ("id" in item ? item.id : item.call))

const anySaid = FastCheck.array(
  FastCheck.record({
    role: FastCheck.constantFrom("user" as const, "assistant" as const),
    at: FastCheck.nat(50)
  }),
  { maxLength: 12 }
).map((items) => items.map((item, i): Said => ({ ...item, id: `s${i}` })))
/** What was said in the order it was kept, which is also its time order. */
const saidInTime = anySaid.map((items) =>
  items
    .map((item) => item.at)
    .sort((x, y) => x - y)
    .map((at, i): Said => ({ ...items[i]!, at }))
)
const anyCalls = FastCheck.array(FastCheck.nat(55), { maxLength: 8 }).map((times) =>
  times.map((at, i): Call => ({ call: `k${i}`, at }))
)

describe("ToolCallPlacement.interleave", () => {
  const said = [a(0), u(10), a(20), u(30), a(40)]

  it("puts a call after the last user message at or before it, before the reply it served", () => {
    expect(label(interleave(said, [c(15)]))).toEqual(["a0", "u10", "c15", "a20", "u30", "a40"])
    expect(label(interleave(said, [c(35)]))).toEqual(["a0", "u10", "a20", "u30", "c35", "a40"])
    expect(label(interleave(said, [c(50)]))).toEqual(["a0", "u10", "a20", "u30", "c50", "a40"])
  })

  it("a call at the same moment as a user message goes after it", () => {
    expect(label(interleave(said, [c(30)]))).toEqual(["a0", "u10", "a20", "u30", "c30", "a40"])
  })

  it("a call before anything the user said goes first", () => {
    expect(label(interleave(said, [c(5)]))).toEqual(["c5", "a0", "u10", "a20", "u30", "a40"])
    expect(label(interleave([], [c(5), c(1)]))).toEqual(["c1", "c5"])
  })

  it("calls keep their time order, those of one moment the order they were given in", () => {
    const calls = [c(32, "late"), c(12, "first"), c(15, "same-1"), c(15, "same-2"), c(31, "next")]
    expect(label(interleave(said, calls))).toEqual([
      "a0",
      "u10",
      "first",
      "same-1",
      "same-2",
      "a20",
      "u30",
      "next",
      "late",
      "a40"
    ])
  })

  it("keeps what was said in its own order, even when its times are not", () => {
    const unordered = [u(10), a(30), u(20), a(25)]
    expect(label(interleave(unordered, [c(22)])).filter((id) => id !== "c22")).toEqual([
      "u10",
      "a30",
      "u20",
      "a25"
    ])
  })

  it.prop(
    "what was said keeps its order, every call is placed once and the calls are in time order",
    [anySaid, anyCalls],
    ([said, calls]) => {
      const placed = interleave(said, calls)
      expect(placed).toHaveLength(said.length + calls.length)
      expect(placed.filter((item): item is Said => "id" in item)).toEqual(said)
      const placedCalls = placed.filter((item): item is Call => "call" in item)
      expect(placedCalls).toEqual(
        [...calls].sort((x, y) => x.at - y.at || Number(x.call.slice(1)) - Number(y.call.slice(1)))
      )
    }
  )

  it.prop(
    "in a conversation kept in time order, each call follows exactly what was said up to the last user message at or before it",
    [saidInTime, anyCalls],
    ([said, calls]) => {
      const placed = interleave(said, calls)
      placed.forEach((item, index) => {
        if (!("call" in item)) return
        const lastUser = said.reduce((last, s, i) => (s.role === "user" && s.at <= item.at ? i : last), -1)
        const saidBefore = placed.slice(0, index).filter((p) => "id" in p)
        expect(saidBefore).toEqual(said.slice(0, lastUser + 1))
      })
    }
  )
})
