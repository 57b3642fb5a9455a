import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import type { CarrierCallStatus } from "../../src/voice/Carrier.js"
import { apply, applyAll, type Callback, initial, rank } from "../../src/voice/CallStatusOrder.js"

const callbacks = (...statuses: ReadonlyArray<CarrierCallStatus>): ReadonlyArray<Callback> =>
  statuses.map((call_status, sequence) => ({ call_status, sequence }))

describe("CallStatusOrder", () => {
  it("moves an answered call ringing, in_progress, completed", () => {
    const { moves, state } = applyAll(initial, callbacks("initiated", "ringing", "in-progress", "completed"))
    expect(moves).toEqual(["ringing", "in_progress", "completed"])
    expect(state).toEqual({ status: "completed", sequence: 3 })
  })

  it("ends busy, unanswered, failed and canceled calls with their own status", () => {
    expect(applyAll(initial, callbacks("initiated", "ringing", "busy")).moves).toEqual(["ringing", "busy"])
    expect(applyAll(initial, callbacks("initiated", "ringing", "no-answer")).moves).toEqual([
      "ringing",
      "no_answer"
    ])
    expect(applyAll(initial, callbacks("initiated", "failed")).moves).toEqual(["failed"])
    expect(applyAll(initial, callbacks("queued", "canceled")).moves).toEqual(["canceled"])
  })

  it("says the call ended exactly on the callback that makes it final", () => {
    const ringing = apply(initial, { call_status: "ringing", sequence: 1 })
    expect(ringing).toMatchObject({ move: "ringing", ended: false })
    const ended = apply(ringing.state, { call_status: "completed", sequence: 3 })
    expect(ended).toMatchObject({ move: "completed", ended: true })
    const again = apply(ended.state, { call_status: "completed", sequence: 3 })
    expect(again).toEqual({ state: ended.state, move: null, ended: false })
  })

  it("ignores duplicates and callbacks that arrive late", () => {
    const { moves, state } = applyAll(
      initial,
      [2, 1, 2, 0, 3, 1, 3].map((sequence) => ({
        call_status: (["initiated", "ringing", "in-progress", "completed"] as const)[sequence]!,
        sequence
      }))
    )
    expect(moves).toEqual(["in_progress", "completed"])
    expect(state).toEqual({ status: "completed", sequence: 3 })
  })

  it("never leaves a final status, even for another final one", () => {
    const { moves } = applyAll(
      { status: "busy", sequence: 2 },
      callbacks("ringing", "in-progress", "completed")
    )
    expect(moves).toEqual([])
  })

  it("the carrier's early statuses (queued, initiated) move nothing", () => {
    expect(apply(initial, { call_status: "initiated", sequence: 0 })).toEqual({
      state: { status: "queued", sequence: 0 },
      move: null,
      ended: false
    })
  })

  // A real call's callbacks: the carrier's order, each status at most once, ending in at most one final one.
  const finals = ["completed", "busy", "no-answer", "failed", "canceled"] as const
  const realCall = FastCheck.tuple(
    FastCheck.boolean(),
    FastCheck.boolean(),
    FastCheck.boolean(),
    FastCheck.option(FastCheck.constantFrom(...finals), { nil: null })
  ).map(([initiated, ringing, answered, final]) =>
    callbacks(
      ...([
        ...(initiated ? ["initiated" as const] : []),
        ...(ringing ? ["ringing" as const] : []),
        ...(answered ? ["in-progress" as const] : []),
        ...(final === null ? [] : [final])
      ] satisfies Array<CarrierCallStatus>)
    )
  )
  /** The callbacks as they may arrive: each repeated up to three more times, all in any order. */
  const arrivals = realCall.chain((sent) =>
    FastCheck.array(FastCheck.nat({ max: 3 }), { minLength: sent.length, maxLength: sent.length }).chain(
      (copies) => {
        const repeated = sent.flatMap((callback, index) => Array(1 + copies[index]!).fill(callback))
        return FastCheck.shuffledSubarray(repeated, {
          minLength: repeated.length,
          maxLength: repeated.length
        }).map((arrived) => ({ sent, arrived: arrived as ReadonlyArray<Callback> }))
      }
    )
  )

  it.prop(
    "reordered and duplicated callbacks end where the ordered ones do",
    [arrivals],
    ([{ arrived, sent }]) => {
      const inOrder = applyAll(initial, sent)
      const asArrived = applyAll(initial, arrived)
      expect(asArrived.state).toEqual(inOrder.state)
    }
  )

  it.prop(
    "moves only forward, each status at most once, the final one last",
    [arrivals],
    ([{ arrived, sent }]) => {
      const { moves } = applyAll(initial, arrived)
      for (let i = 1; i < moves.length; i++) expect(rank(moves[i]!)).toBeGreaterThan(rank(moves[i - 1]!))
      const inOrder = applyAll(initial, sent).moves
      expect(inOrder.slice(-1)).toEqual(moves.slice(-1))
      expect(moves.every((move) => inOrder.includes(move))).toBe(true)
    }
  )

  it.prop(
    "ends a call exactly once when a final callback arrives, however often",
    [arrivals],
    ([{ arrived, sent }]) => {
      let state = initial
      let ends = 0
      for (const callback of arrived) {
        const step = apply(state, callback)
        state = step.state
        if (step.ended) ends++
      }
      const hasFinal = sent.some((callback) => rank(applyAll(initial, [callback]).state.status) === 3)
      expect(ends).toBe(hasFinal ? 1 : 0)
    }
  )

  it.prop("a callback applied twice changes nothing the second time", [arrivals], ([{ arrived }]) => {
    let state = initial
    for (const callback of arrived) {
      const once = apply(state, callback)
      const twice = apply(once.state, callback)
      expect(twice.state).toEqual(once.state)
      expect(twice.move).toBeNull()
      state = once.state
    }
  })
})
