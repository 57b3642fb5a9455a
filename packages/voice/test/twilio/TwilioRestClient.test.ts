import { describe, expect, it } from "@effect/vitest"
import * as CarrierErrors from "@voice-agent-platform/core/voice/CarrierErrors.js"
import type { CarrierRequestError } from "@voice-agent-platform/core/voice/CarrierErrors.js"
import { Effect, Either, Redacted } from "effect"
import { createServer, type Server } from "node:http"
import * as TwilioRestClient from "../../src/twilio/TwilioRestClient.js"
import { FakeTwilio } from "../../testing/index.js"

const call = {
  to: "+48500000002",
  from: "+48500000001",
  url: "https://voice.example.com/telephony/twilio/answer/42",
  statusCallback: "https://voice.example.com/telephony/twilio/status/42"
}

const clientOf = (twilio: FakeTwilio.Running, overrides: Partial<TwilioRestClient.Options> = {}) =>
  Effect.orDie(
    TwilioRestClient.make({
      accountSid: twilio.accountSid,
      authToken: Redacted.make(twilio.authToken),
      baseUrl: twilio.baseUrl,
      ...overrides
    })
  )

/** The error of a failed effect, checked to hold nothing of `token`. */
const failure = <A>(effect: Effect.Effect<A, CarrierRequestError>, token: string) =>
  Effect.map(Effect.either(effect), (result) => {
    if (Either.isRight(result)) throw new Error("expected a failure")
    const error = result.left
    for (const text of [
      error.message,
      JSON.stringify(error),
      String(error),
      JSON.stringify(error.toJSON())
    ]) {
      expect(text).not.toContain(token)
      expect(text).not.toContain("Basic ")
    }
    return error
  })

/** A loopback server for the scope answering every request with `handler`. */
const serving = (handler: Parameters<typeof createServer>[1]) =>
  Effect.acquireRelease(
    Effect.async<{ readonly server: Server; readonly baseUrl: string }>((resume) => {
      const server = createServer(handler)
      server.listen(0, "127.0.0.1", () =>
        resume(
          Effect.succeed({
            server,
            baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`
          })
        )
      )
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )

describe("TwilioRestClient against the fake Twilio", () => {
  it.scopedLive(
    "creates a call form-encoded with Basic auth, the answer and status URLs and four events",
    () =>
      Effect.gen(function* () {
        const twilio = yield* FakeTwilio.start()
        const client = yield* clientOf(twilio)
        const created = yield* client.createCall({ ...call, timeLimitSeconds: 600, ringTimeoutSeconds: 30 })
        expect(created.sid).toMatch(/^CA[0-9a-f]{32}$/)
        expect(created.status).toBe("queued")
        const [request] = twilio.requests()
        expect(request).toMatchObject({
          method: "POST",
          path: `/2010-04-01/Accounts/${twilio.accountSid}/Calls.json`,
          authorized: true,
          status: 201
        })
        expect(request!.params).toEqual([
          ["To", call.to],
          ["From", call.from],
          ["Url", call.url],
          ["Method", "POST"],
          ["StatusCallback", call.statusCallback],
          ["StatusCallbackMethod", "POST"],
          ["StatusCallbackEvent", "initiated"],
          ["StatusCallbackEvent", "ringing"],
          ["StatusCallbackEvent", "answered"],
          ["StatusCallbackEvent", "completed"],
          ["TimeLimit", "600"],
          ["Timeout", "30"]
        ])
        expect(twilio.calls()[0]).toMatchObject({
          sid: created.sid,
          to: call.to,
          status_callback: call.statusCallback
        })
      })
  )

  it.scopedLive("hangs up with Status=completed, transfers with Twiml, reads the price once settled", () =>
    Effect.gen(function* () {
      const twilio = yield* FakeTwilio.start()
      const client = yield* clientOf(twilio)
      const { sid } = yield* client.createCall(call)
      const fake = twilio.calls()[0]!
      fake.status = "in-progress"
      yield* client.redirect(sid, "<Response><Dial>+48500000009</Dial></Response>")
      expect(fake.twiml).toEqual(["<Response><Dial>+48500000009</Dial></Response>"])
      expect(yield* client.callPrice(sid)).toBeNull()
      const hungUp = yield* client.hangUp(sid)
      expect(hungUp.status).toBe("completed")
      expect(twilio.requests().at(-1)).toMatchObject({
        method: "POST",
        path: `/2010-04-01/Accounts/${twilio.accountSid}/Calls/${sid}.json`,
        params: [["Status", "completed"]]
      })
      fake.price = "-0.01750"
      fake.duration = "42"
      expect(yield* client.callPrice(sid)).toEqual({ amount: 0.0175, currency: "USD" })
      expect((yield* client.fetchCall(sid)).duration).toBe("42")
    })
  )

  it.scopedLive("a refused or unknown request is CarrierRefused with Twilio's code, never its message", () =>
    Effect.gen(function* () {
      const twilio = yield* FakeTwilio.start()
      const client = yield* clientOf(twilio)
      const badTo = yield* failure(client.createCall({ ...call, to: "500000002" }), twilio.authToken)
      expect(badTo).toMatchObject({ _tag: "CarrierRefused", status: 400, code: 21211 })
      expect(badTo.message).toBe("carrier_refused: Twilio refused the request (400, Twilio error 21211)")
      const unknown = yield* failure(client.hangUp(`CA${"0".repeat(32)}`), twilio.authToken)
      expect(unknown).toMatchObject({ _tag: "CarrierRefused", status: 404, code: 20404 })
      const badSid = yield* failure(client.hangUp("CA1/../../x"), twilio.authToken)
      expect(badSid._tag).toBe("CarrierUnavailable")
      expect(twilio.requests().length).toBe(2)
    })
  )

  it.scopedLive("a wrong auth token is refused (401) and the token reaches no error", () =>
    Effect.gen(function* () {
      const twilio = yield* FakeTwilio.start()
      const wrongToken = "f00dfeedf00dfeedf00dfeedf00dfeed"
      const client = yield* clientOf(twilio, { authToken: Redacted.make(wrongToken) })
      const error = yield* failure(client.createCall(call), wrongToken)
      expect(error).toMatchObject({ _tag: "CarrierRefused", status: 401, code: 20003 })
      expect(error.message).toContain("check TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN")
      expect(twilio.requests()[0]).toMatchObject({ authorized: false, status: 401 })
      expect(twilio.calls()).toEqual([])
    })
  )

  it.scopedLive(
    "Twilio failing (500), down or gone is CarrierUnavailable; its outcome unknown unless nothing was sent",
    () =>
      Effect.gen(function* () {
        const twilio = yield* FakeTwilio.start()
        const client = yield* clientOf(twilio)
        twilio.fail({ kind: "status", status: 500 })
        // a 5xx may come after the work was done: the call may exist
        const failed = yield* failure(client.createCall(call), twilio.authToken)
        expect(failed).toMatchObject({
          _tag: "CarrierUnavailable",
          reason: "Twilio failed (500, Twilio error 20500)",
          outcome_unknown: true
        })
        expect(CarrierErrors.outcomeUnknown(failed)).toBe(true)
        twilio.fail({ kind: "status", status: 429, code: 20429 })
        const limited = yield* failure(client.createCall(call), twilio.authToken)
        expect(limited).toMatchObject({ _tag: "CarrierUnavailable", outcome_unknown: false })
        twilio.fail({ kind: "down" })
        // the connection dropped after the request was sent
        const down = yield* failure(client.createCall(call), twilio.authToken)
        expect(down).toMatchObject({ _tag: "CarrierUnavailable", outcome_unknown: true })
        expect(down.message).toMatch(/^carrier_unavailable: Twilio could not be reached/)
        twilio.fail({ kind: "none" })
        expect((yield* client.createCall(call)).sid).toMatch(/^CA/)
        const closed = yield* Effect.scoped(serving(() => undefined))
        const gone = yield* clientOf(twilio, { baseUrl: closed.baseUrl })
        const refused = yield* failure(gone.createCall(call), twilio.authToken)
        expect(refused).toMatchObject({
          _tag: "CarrierUnavailable",
          reason: "Twilio could not be reached (ECONNREFUSED)",
          outcome_unknown: false
        })
        expect(CarrierErrors.outcomeUnknown(refused)).toBe(false)
        expect(CarrierErrors.outcomeUnknown(new CarrierErrors.CarrierDeadline({ timeout_ms: 1 }))).toBe(true)
      })
  )

  it.scopedLive("finds the newest calls from a caller id to a number, whatever their status", () =>
    Effect.gen(function* () {
      const twilio = yield* FakeTwilio.start()
      const client = yield* clientOf(twilio)
      const first = yield* client.createCall(call)
      yield* client.createCall({ ...call, to: "+48500000003" })
      // a dial whose answer was lost: created all the same
      twilio.fail({ kind: "lost", status: 500 })
      expect((yield* failure(client.createCall(call), twilio.authToken))._tag).toBe("CarrierUnavailable")
      const found = yield* client.findCalls(call.to, call.from)
      expect(found.map((c) => c.sid)).toEqual([twilio.calls()[2]!.sid, first.sid])
      expect(TwilioRestClient.createdAtOf(found[0]!)).toBeInstanceOf(Date)
      const get = twilio.requests().at(-1)!
      expect(get).toMatchObject({ method: "GET", authorized: true, status: 200 })
      expect(yield* client.findCalls("+48500000009", call.from)).toEqual([])
    })
  )

  it.scopedLive("a Twilio that never answers fails at the deadline", () =>
    Effect.gen(function* () {
      const twilio = yield* FakeTwilio.start()
      twilio.fail({ kind: "silent" })
      const client = yield* clientOf(twilio, { timeoutMs: 300 })
      const started = Date.now()
      const error = yield* failure(client.createCall(call), twilio.authToken)
      expect(error).toEqual(expect.objectContaining({ _tag: "CarrierDeadline", timeout_ms: 300 }))
      expect(Date.now() - started).toBeLessThan(3000)
      expect(twilio.requests()).toHaveLength(1)
    })
  )

  it.scopedLive(
    "an answer larger than the cap, or not a call, is CarrierUnavailable; an echoed token is not repeated",
    () =>
      Effect.gen(function* () {
        const twilio = yield* FakeTwilio.start()
        const { baseUrl } = yield* serving((request, response) => {
          if (request.url?.endsWith("/Calls.json")) {
            response.writeHead(201, { "content-type": "application/json" })
            return response.end(
              JSON.stringify({ sid: `CA${"a".repeat(32)}`, status: "queued", padding: "x".repeat(8192) })
            )
          }
          // an error that repeats the request's credentials
          response.writeHead(400, { "content-type": "application/json" })
          response.end(
            JSON.stringify({
              code: 21211,
              message: `bad ${request.headers.authorization} ${twilio.authToken}`
            })
          )
        })
        const client = yield* clientOf(twilio, { baseUrl, maxResponseBytes: 4096 })
        expect(yield* failure(client.createCall(call), twilio.authToken)).toMatchObject({
          _tag: "CarrierUnavailable",
          reason: "Twilio's answer was larger than 4096 bytes"
        })
        const roomy = yield* clientOf(twilio, { baseUrl })
        expect((yield* roomy.createCall(call)).sid).toBe(`CA${"a".repeat(32)}`)
        const echoed = yield* failure(roomy.hangUp(`CA${"b".repeat(32)}`), twilio.authToken)
        expect(echoed).toMatchObject({ _tag: "CarrierRefused", code: 21211 })
        const { baseUrl: odd } = yield* serving((_, response) => {
          response.writeHead(200, { "content-type": "application/json" })
          response.end('{"sid": "nope"}')
        })
        const confused = yield* clientOf(twilio, { baseUrl: odd })
        expect((yield* failure(confused.fetchCall(`CA${"c".repeat(32)}`), twilio.authToken)).message).toBe(
          "carrier_unavailable: Twilio's answer (200) is not a call resource"
        )
      })
  )

  it.effect("refuses options that cannot work, without repeating the token", () =>
    Effect.gen(function* () {
      const authToken = Redacted.make("s3cr3t-token")
      const accountSid = `AC${"1".repeat(32)}`
      const reasons = yield* Effect.forEach(
        [
          { accountSid: "AC123", authToken },
          { accountSid, authToken: Redacted.make("") },
          { accountSid, authToken, baseUrl: "https://user:s3cr3t-token@carrier.example" },
          { accountSid, authToken, baseUrl: "ftp://carrier.example" },
          { accountSid, authToken, timeoutMs: 0 },
          { accountSid, authToken, maxResponseBytes: 10 }
        ],
        (options) => Effect.flip(TwilioRestClient.make(options))
      )
      expect(reasons).toHaveLength(6)
      for (const error of reasons) expect(error.message).not.toContain("s3cr3t-token")
    })
  )
})
