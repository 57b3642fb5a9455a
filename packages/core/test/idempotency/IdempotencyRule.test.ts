import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { IdempotencyKey } from "../../src/idempotency/IdempotencyKey.js"
import type { IdempotencyClaim, IdempotencyRecord } from "../../src/idempotency/IdempotencyRecord.js"
import { defaultTtl } from "../../src/idempotency/IdempotencyRecord.js"
import * as IdempotencyRule from "../../src/idempotency/IdempotencyRule.js"
import { OrganizationId } from "../../src/organizations/Organization.js"
import { RunId } from "../../src/runs/RunId.js"

const t0 = new Date("2026-02-10T11:00:00.000Z")
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000)
const claim: IdempotencyClaim = {
  organization_id: OrganizationId.make(1),
  key: IdempotencyKey.make("key-1"),
  fingerprint: "fp",
  token: "holder"
}
const inFlight = IdempotencyRule.claimed(claim, t0, defaultTtl)
const answered: IdempotencyRecord = { ...inFlight, response: { status: 200, body: { id: 1 } } }

describe("IdempotencyRule.claimed", () => {
  it("writes an unanswered record kept 24 h and leased for 60 s", () => {
    expect(inFlight).toEqual({
      ...claim,
      created_at: t0,
      expires_at: at(86_400),
      lease_until: at(60),
      response: null,
      run_id: null
    })
  })
})

describe("IdempotencyRule.decide", () => {
  it("lets the first request run", () => {
    expect(IdempotencyRule.decide(undefined, "fp", t0)).toEqual({ _tag: "New" })
  })

  it("replays a final answer to the same request until the retention ends", () => {
    expect(IdempotencyRule.decide(answered, "fp", at(1))).toEqual({
      _tag: "Replay",
      response: { status: 200, body: { id: 1 } }
    })
    expect(IdempotencyRule.decide(answered, "fp", at(86_399.999))._tag).toBe("Replay")
    expect(IdempotencyRule.decide(answered, "fp", at(86_400))).toEqual({ _tag: "Expired" })
  })

  it("answers in-flight until the lease lapses, then lets a retry run", () => {
    expect(IdempotencyRule.decide(inFlight, "fp", at(59.999))).toEqual({
      _tag: "InFlight",
      leaseUntil: at(60)
    })
    expect(IdempotencyRule.decide(inFlight, "fp", at(60))).toEqual({ _tag: "Expired" })
    // the lease only binds unanswered records
    expect(IdempotencyRule.decide(answered, "fp", at(61))._tag).toBe("Replay")
  })

  it("refuses another request under the key, even while the first one runs", () => {
    expect(IdempotencyRule.decide(answered, "other", at(1))).toEqual({ _tag: "Mismatch" })
    expect(IdempotencyRule.decide(inFlight, "other", at(1))).toEqual({ _tag: "Mismatch" })
    // a forgotten key takes any request
    expect(IdempotencyRule.decide(answered, "other", at(86_400))).toEqual({ _tag: "Expired" })
    expect(IdempotencyRule.decide(inFlight, "other", at(60))).toEqual({ _tag: "Expired" })
  })

  it.prop(
    "expires, refuses, waits or replays, whatever the record and the time",
    [FastCheck.boolean(), FastCheck.boolean(), FastCheck.integer({ min: -10, max: 200_000 })],
    ([isAnswered, sameRequest, seconds]) => {
      const record = isAnswered ? answered : inFlight
      const now = at(seconds)
      const decision = IdempotencyRule.decide(record, sameRequest ? "fp" : "other", now)
      const alive = now < record.expires_at && (isAnswered || now < record.lease_until)
      if (!alive) expect(decision).toEqual({ _tag: "Expired" })
      else if (!sameRequest) expect(decision).toEqual({ _tag: "Mismatch" })
      else expect(decision._tag).toBe(isAnswered ? "Replay" : "InFlight")
      // only a free key may be claimed, and a stored answer is never given to another request
      expect(IdempotencyRule.mayClaim(decision)).toBe(!alive)
      if (decision._tag === "Replay") expect(sameRequest).toBe(true)
    }
  )
})

describe("IdempotencyRule.erased", () => {
  const runId = RunId.make(42)
  const placed: IdempotencyRecord = {
    ...inFlight,
    fingerprint: "a1b2c3",
    response: { status: 200, body: { workflow_run_id: 42, phone_number: "+48500100200" } },
    run_id: runId
  }
  const erased = IdempotencyRule.erased(placed, runId)

  it("keeps the key and its dates, and nothing of the request or the run", () => {
    expect(erased).toEqual({
      ...placed,
      fingerprint: "",
      response: {
        status: 404,
        body: { detail: "Run 42 was deleted; the answer kept for this Idempotency-Key was erased with it" }
      },
      run_id: null
    })
    expect(JSON.stringify(erased)).not.toMatch(/a1b2c3|500100200/)
  })

  it.prop(
    "answers the erased 404 to any request until the key expires, and never frees it before",
    [FastCheck.string(), FastCheck.integer({ min: -10, max: 200_000 })],
    ([fingerprint, seconds]) => {
      const decision = IdempotencyRule.decide(erased, fingerprint, at(seconds))
      if (at(seconds) < erased.expires_at) {
        expect(decision).toEqual({ _tag: "Replay", response: IdempotencyRule.erasedAnswer(runId) })
      } else expect(decision).toEqual({ _tag: "Expired" })
    }
  )
})

describe("IdempotencyRule.heldBy", () => {
  it("holds only the claim's own unanswered record", () => {
    expect(IdempotencyRule.heldBy(inFlight, claim)).toBe(true)
    expect(IdempotencyRule.heldBy(inFlight, { ...claim, token: "other" })).toBe(false)
    expect(IdempotencyRule.heldBy(answered, claim)).toBe(false)
    expect(IdempotencyRule.heldBy(undefined, claim)).toBe(false)
  })
})

describe("IdempotencyRule.isFinal", () => {
  it("keeps successes and refusals a retry would repeat, not 409, 429 or 5xx", () => {
    for (const status of [200, 201, 204, 400, 402, 403, 404, 422])
      expect(IdempotencyRule.isFinal(status)).toBe(true)
    for (const status of [409, 429, 500, 502, 503, 504, 101, 302])
      expect(IdempotencyRule.isFinal(status)).toBe(false)
  })

  it.prop(
    "keeps exactly 2xx and 4xx other than 409 and 429",
    [
      FastCheck.oneof(
        FastCheck.integer({ min: 100, max: 599 }),
        FastCheck.constantFrom(402, 409, 422, 429, 503)
      )
    ],
    ([status]) => {
      const retryable = status === 409 || status === 429 || status >= 500
      const answer = status >= 200 && status < 300 ? true : status >= 400 && !retryable
      expect(IdempotencyRule.isFinal(status)).toBe(answer)
    }
  )
})
