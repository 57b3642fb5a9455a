import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import * as TwilioStatusCallback from "../../src/twilio/TwilioStatusCallback.js"

const sid = "CA0123456789abcdef0123456789abcdef"
const form = (overrides: Record<string, string | undefined> = {}): ReadonlyArray<readonly [string, string]> =>
  Object.entries({
    AccountSid: "AC0123456789abcdef0123456789abcdef",
    CallSid: sid,
    CallStatus: "completed",
    SequenceNumber: "3",
    CallDuration: "42",
    Timestamp: "Fri, 27 Nov 2026 15:04:05 +0000",
    From: "+48500000001",
    To: "+48500000002",
    Direction: "outbound-api",
    ...overrides
  }).flatMap(([name, value]): Array<[string, string]> => (value === undefined ? [] : [[name, value]]))

const reason = (params: ReadonlyArray<readonly [string, string]>) =>
  Effect.map(Effect.either(TwilioStatusCallback.parse(params)), (result) =>
    Either.isLeft(result) ? result.left.reason : "parsed"
  )

describe("TwilioStatusCallback", () => {
  it.effect("reads a completed call's callback", () =>
    Effect.gen(function* () {
      expect(yield* TwilioStatusCallback.parse(form({ AnsweredBy: "human" }))).toEqual({
        call_id: sid,
        call_status: "completed",
        sequence: 3,
        duration_seconds: 42,
        answered_by: "human",
        timestamp: new Date("2026-11-27T15:04:05.000Z")
      })
    })
  )

  it.effect("reads every status Twilio reports, without the fields only an ended call has", () =>
    Effect.gen(function* () {
      for (const status of [
        "queued",
        "initiated",
        "ringing",
        "in-progress",
        "busy",
        "failed",
        "no-answer",
        "canceled"
      ]) {
        const callback = yield* TwilioStatusCallback.parse(
          form({ CallStatus: status, CallDuration: undefined, Timestamp: undefined, SequenceNumber: "0" })
        )
        expect(callback).toMatchObject({
          call_status: status,
          sequence: 0,
          duration_seconds: null,
          timestamp: null
        })
      }
    })
  )

  it.effect("reads a form body, the first of a repeated name counting", () =>
    Effect.gen(function* () {
      const body = `CallSid=${sid}&CallStatus=ringing&SequenceNumber=1&CallStatus=completed`
      expect(yield* TwilioStatusCallback.parseBody(body)).toMatchObject({
        call_status: "ringing",
        sequence: 1
      })
    })
  )

  it.effect("refuses a body that is not a status callback, naming the field and never its value", () =>
    Effect.gen(function* () {
      expect(yield* reason(form({ CallSid: undefined }))).toBe("the status callback has no CallSid")
      expect(yield* reason(form({ CallSid: "CA12<script>" }))).toBe(
        "the status callback's CallSid is not valid"
      )
      expect(yield* reason(form({ CallStatus: "answered" }))).toBe(
        "the status callback's CallStatus is not valid"
      )
      expect(yield* reason(form({ SequenceNumber: undefined }))).toBe(
        "the status callback has no SequenceNumber"
      )
      for (const bad of ["-1", "1.5", "01", "x", ""]) {
        expect(yield* reason(form({ SequenceNumber: bad }))).toBe(
          "the status callback's SequenceNumber is not valid"
        )
      }
      expect(yield* reason(form({ CallDuration: "ten" }))).toBe(
        "the status callback's CallDuration is not valid"
      )
      expect(yield* reason(form({ Timestamp: "yesterday" }))).toBe(
        "the status callback's Timestamp is not valid"
      )
      expect(yield* reason([])).toBe("the status callback has no CallSid")
    })
  )
})
