import { describe, expect, it } from "@effect/vitest"
import { Carrier } from "@voice-agent-platform/core/voice/Carrier.js"
import * as CallStatusOrder from "@voice-agent-platform/core/voice/CallStatusOrder.js"
import type { RunId } from "@voice-agent-platform/core/runs/RunId.js"
import { Effect, Either, Redacted } from "effect"
import { createServer } from "node:http"
import * as TwilioCarrier from "../../src/twilio/TwilioCarrier.js"
import * as TwilioSignature from "../../src/twilio/TwilioSignature.js"
import { FakeTwilio } from "../../testing/index.js"

/** A loopback webhook receiver for the scope: it verifies and parses each POST with the carrier, and records the outcome. */
const receiver = (carrier: Carrier["Type"], publicBase: string) =>
  Effect.gen(function* () {
    const outcomes: Array<string> = []
    const server = yield* Effect.acquireRelease(
      Effect.async<ReturnType<typeof createServer>>((resume) => {
        const server = createServer((request, response) => {
          let body = ""
          request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")))
          request.on("end", () => {
            const header = request.headers[TwilioSignature.header]
            const webhook = {
              // the signature covers the public URL, never what the proxy in front made of it
              url: `${publicBase}${request.url ?? ""}`,
              params: TwilioSignature.formParams(body),
              signature: typeof header === "string" ? header : null
            }
            const outcome = Effect.runSync(
              Effect.either(
                Effect.zipRight(carrier.verifyWebhook(webhook), carrier.parseStatus(webhook.params))
              )
            )
            if (Either.isLeft(outcome)) {
              outcomes.push(outcome.left._tag)
              response.writeHead(outcome.left._tag === "InvalidCarrierSignature" ? 403 : 400).end()
            } else {
              outcomes.push(`${outcome.right.call_status}#${outcome.right.sequence}`)
              response.writeHead(204).end()
            }
          })
        })
        server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
      }),
      (server) =>
        Effect.async<void>((resume) => {
          server.closeAllConnections()
          server.close(() => resume(Effect.void))
        })
    )
    return { origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`, outcomes }
  })

describe("TwilioCarrier over the fake Twilio", () => {
  it.scopedLive(
    "dials, answers with a stream, reads signed status callbacks, transfers, hangs up, reads the price",
    () =>
      Effect.gen(function* () {
        const twilio = yield* FakeTwilio.start()
        const carrier = yield* TwilioCarrier.make({
          accountSid: twilio.accountSid,
          authToken: Redacted.make(twilio.authToken),
          baseUrl: twilio.baseUrl
        })
        expect(carrier.provider).toBe("twilio")
        const publicBase = "https://voice.example.com"
        const placed = yield* carrier.dial({
          run_id: 42 as RunId,
          to: "+48500000002",
          from: "+48500000001",
          answer_url: `${publicBase}/telephony/twilio/answer/42`,
          status_url: `${publicBase}/telephony/twilio/status/42`
        })
        expect(placed).toEqual({ call_id: twilio.calls()[0]!.sid, status: "queued" })
        const call = twilio.calls()[0]!
        expect(call.status_callback_events).toEqual(["initiated", "ringing", "answered", "completed"])

        expect(carrier.answerDocument("wss://voice.example.com/telephony/twilio/stream/42/1.tok")).toEqual({
          content_type: "text/xml; charset=utf-8",
          body: '<?xml version="1.0" encoding="UTF-8"?><Response><Connect><Stream url="wss://voice.example.com/telephony/twilio/stream/42/1.tok"/></Connect></Response>'
        })

        // Twilio's callbacks, signed over the public URL, reach a server behind a proxy
        const webhooks = yield* receiver(carrier, publicBase)
        const path = "/telephony/twilio/status/42"
        const post = (status: string, sequence: number, options?: { readonly signature?: string | null }) =>
          twilio.postSigned(`${webhooks.origin}${path}`, twilio.statusParams(call, status, sequence), {
            signedUrl: `${publicBase}${path}`,
            ...options
          })
        expect((yield* post("ringing", 1)).status).toBe(204)
        expect((yield* post("in-progress", 2)).status).toBe(204)
        expect((yield* post("ringing", 1)).status).toBe(204)
        expect((yield* post("completed", 3, { signature: null })).status).toBe(403)
        expect((yield* post("completed", 3, { signature: "0/KCTR6DLpKmkAf8muzZqo1nDgQ=" })).status).toBe(403)
        expect(
          (yield* twilio.postSigned(`${webhooks.origin}${path}`, [["CallStatus", "completed"]], {
            signedUrl: `${publicBase}${path}`
          })).status
        ).toBe(400)
        expect(webhooks.outcomes).toEqual([
          "ringing#1",
          "in-progress#2",
          "ringing#1",
          "InvalidCarrierSignature",
          "InvalidCarrierSignature",
          "InvalidCarrierCallback"
        ])
        const callbacks = yield* Effect.forEach([2, 1, 3, 3], (sequence) =>
          carrier.parseStatus(
            twilio.statusParams(
              call,
              ["initiated", "ringing", "in-progress", "completed"][sequence]!,
              sequence
            )
          )
        )
        expect(CallStatusOrder.applyAll(CallStatusOrder.initial, callbacks).moves).toEqual([
          "in_progress",
          "completed"
        ])

        call.status = "in-progress"
        yield* carrier.transfer(placed.call_id, "+48500000009")
        expect(call.twiml).toEqual(["<Response><Dial>+48500000009</Dial></Response>"])
        const badTransfer = yield* Effect.flip(carrier.transfer(placed.call_id, "0048 500"))
        expect(badTransfer._tag).toBe("CarrierUnavailable")
        expect(call.twiml).toHaveLength(1)

        yield* carrier.hangUp(placed.call_id)
        expect(call.status).toBe("completed")
        expect(yield* carrier.callPrice(placed.call_id)).toBeNull()
        call.price = "-0.0130"
        expect(yield* carrier.callPrice(placed.call_id)).toEqual({ amount: 0.013, currency: "USD" })
      })
  )

  it.effect("refuses options that cannot work", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        TwilioCarrier.make({ accountSid: "nope", authToken: Redacted.make("x") })
      )
      expect(error._tag).toBe("InvalidOptions")
    })
  )
})
