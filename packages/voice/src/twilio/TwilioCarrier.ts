import { Carrier, type CarrierCall } from "@voice-agent-platform/core/voice/Carrier.js"
import { CarrierUnavailable } from "@voice-agent-platform/core/voice/CarrierErrors.js"
import { Effect, Either, Layer, Redacted } from "effect"
import * as TwilioAnswer from "./TwilioAnswer.js"
import * as TwilioRestClient from "./TwilioRestClient.js"
import * as TwilioSignature from "./TwilioSignature.js"
import * as TwilioStatusCallback from "./TwilioStatusCallback.js"

/**
 * The `Carrier` port over Twilio Programmable Voice: the REST client for dialing, hanging up,
 * transferring and the price; TwiML for the answer; `X-Twilio-Signature` for webhooks; Twilio's status
 * callbacks read. Not selected by anything yet (`TELEPHONY=twilio` comes with the server's wiring).
 */

/** A call resource as the port gives it. */
export const carrierCall = (call: TwilioRestClient.CallResource): CarrierCall => {
  const duration = call.duration === null ? NaN : Number(call.duration)
  return {
    call_id: call.sid,
    status: call.status,
    duration_seconds: Number.isSafeInteger(duration) && duration >= 0 ? duration : null,
    price: TwilioRestClient.priceOf(call),
    created_at: TwilioRestClient.createdAtOf(call)
  }
}

/** The carrier's name in logs and metrics. */
export const provider = "twilio"

/** The service over a checked client. */
export const make = (
  options: TwilioRestClient.Options
): Effect.Effect<Carrier["Type"], TwilioRestClient.InvalidOptions> =>
  Effect.map(TwilioRestClient.make(options), (client) => {
    const authToken = Redacted.value(options.authToken)
    return {
      provider,
      dial: (request) =>
        Effect.map(
          client.createCall({
            to: request.to,
            from: request.from,
            url: request.answer_url,
            statusCallback: request.status_url,
            ...(request.time_limit_seconds === undefined
              ? {}
              : { timeLimitSeconds: request.time_limit_seconds }),
            ...(request.ring_timeout_seconds === undefined
              ? {}
              : { ringTimeoutSeconds: request.ring_timeout_seconds })
          }),
          (call) => ({ call_id: call.sid, status: call.status })
        ),
      hangUp: (callId) => Effect.asVoid(client.hangUp(callId)),
      transfer: (callId, to) =>
        Either.match(TwilioAnswer.dial(to), {
          // the transfer rule lets only E.164 numbers through: a defect, reported without the number
          onLeft: () =>
            Effect.fail(new CarrierUnavailable({ reason: "the transfer number is not in E.164 form" })),
          onRight: (twiml) => Effect.asVoid(client.redirect(callId, twiml))
        }),
      answerDocument: (streamUrl) => ({
        content_type: TwilioAnswer.contentType,
        body: Either.getOrThrow(TwilioAnswer.connectStream(streamUrl))
      }),
      hangUpDocument: { content_type: TwilioAnswer.contentType, body: TwilioAnswer.hangUp },
      verifyWebhook: (webhook) => TwilioSignature.verify(authToken, webhook),
      callIdOf: (params) => {
        const sid = params.find(([name]) => name === "CallSid")?.[1]
        return sid !== undefined && /^CA[0-9a-f]{32}$/.test(sid) ? sid : null
      },
      parseStatus: TwilioStatusCallback.parse,
      callPrice: client.callPrice,
      fetchCall: (callId) => Effect.map(client.fetchCall(callId), carrierCall),
      findCalls: ({ to, from }) => Effect.map(client.findCalls(to, from), (calls) => calls.map(carrierCall))
    }
  })

/** The port, provided from checked options. */
export const layer = (
  options: TwilioRestClient.Options
): Layer.Layer<Carrier, TwilioRestClient.InvalidOptions> => Layer.effect(Carrier, make(options))
