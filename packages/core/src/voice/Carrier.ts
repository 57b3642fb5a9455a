import { Context, type Effect, Schema } from "effect"
import type { RunId } from "../runs/RunId.js"
import type { CarrierRequestError, InvalidCarrierCallback, InvalidCarrierSignature } from "./CarrierErrors.js"

/**
 * The carrier port: the phone network a real call goes through (issue 27). It dials a number for a run,
 * hangs up, transfers, writes the document that answers the carrier when the call connects (connect the
 * audio to the run's media socket), checks that a webhook comes from the carrier, reads its status
 * callbacks, and reads what a call cost. First adapter: Twilio Programmable Voice
 * (`@voice-agent-platform/voice`, `TwilioCarrier`). Pure rules over what it reports: `CallStatusOrder`
 * (status callbacks → the run's status moves) and `StreamToken` (the media socket's capability).
 */

/**
 * A call's status as the carrier reports it: Twilio's `CallStatus` words, which the other carriers'
 * vocabularies map onto.
 */
export const CarrierCallStatus = Schema.Literal(
  "queued",
  "initiated",
  "ringing",
  "in-progress",
  "completed",
  "busy",
  "failed",
  "no-answer",
  "canceled"
)
export type CarrierCallStatus = typeof CarrierCallStatus.Type

/** A call to place for a run. Numbers are E.164; the URLs are absolute, under the deployment's public address. */
export interface DialRequest {
  readonly run_id: RunId
  readonly to: string
  readonly from: string
  /** Where the carrier asks what to do once the call connects (answered with `answerDocument`). */
  readonly answer_url: string
  /** Where the carrier reports the call's progress (initiated, ringing, answered, completed). */
  readonly status_url: string
  /** The longest the call may last once connected, in seconds; the carrier's own limit when absent. */
  readonly time_limit_seconds?: number
  /** How long to let it ring, in seconds; the carrier's default (60) when absent. */
  readonly ring_timeout_seconds?: number
}

/** A call the carrier took. */
export interface PlacedCall {
  /** The carrier's id of the call (Twilio's `CallSid`, `CA` + 32 hex digits). */
  readonly call_id: string
  readonly status: CarrierCallStatus
}

/** A document the carrier's answer webhook is answered with (TwiML for Twilio). */
export interface AnswerDocument {
  readonly content_type: string
  readonly body: string
}

/** A webhook request as it arrived: what its signature covers and the signature itself. */
export interface CarrierWebhook {
  /** The full URL the carrier requested, built from the public address (not the proxy's view of it). */
  readonly url: string
  /** The form parameters of the body, in the order they came (a name may repeat). */
  readonly params: ReadonlyArray<readonly [string, string]>
  /** The signature header's value; null when the request had none. */
  readonly signature: string | null
}

/** One status callback, read. */
export interface StatusCallback {
  readonly call_id: string
  readonly call_status: CarrierCallStatus
  /** The callback's place in the call's order (Twilio's `SequenceNumber`, from 0). */
  readonly sequence: number
  /** The billed duration in seconds, on the callback of an ended call; null otherwise. */
  readonly duration_seconds: number | null
  /** Who answered, when the carrier detected it (`human`, `machine_start`, …); null otherwise. */
  readonly answered_by: string | null
  /** When the carrier sent it; null when it did not say. */
  readonly timestamp: Date | null
}

/** What a call cost, as the carrier bills it: a non-negative amount in a currency (`USD`). */
export interface CallPrice {
  readonly amount: number
  readonly currency: string
}

/** A call as the carrier reports it when asked (`fetchCall`, `findCalls`). */
export interface CarrierCall {
  readonly call_id: string
  readonly status: CarrierCallStatus
  /** The billed duration in seconds, once the call ended; null before. */
  readonly duration_seconds: number | null
  /** What it cost; null while the carrier has not settled it. */
  readonly price: CallPrice | null
  /** When the carrier created it; null when it did not say. */
  readonly created_at: Date | null
}

export class Carrier extends Context.Tag("@voice-agent-platform/core/Carrier")<
  Carrier,
  {
    /** The carrier's name for logs and metrics (`twilio`); never a credential. */
    readonly provider: string
    /** Places the call; answers once the carrier has taken it. */
    readonly dial: (request: DialRequest) => Effect.Effect<PlacedCall, CarrierRequestError>
    /** Ends the call, whatever state it is in. */
    readonly hangUp: (callId: string) => Effect.Effect<void, CarrierRequestError>
    /** Blind transfer: the carrier connects the caller to `to` (E.164, already allowed) and leaves the run. */
    readonly transfer: (callId: string, to: string) => Effect.Effect<void, CarrierRequestError>
    /** What the answer webhook returns: connect the call's audio to `streamUrl` (a ws(s) URL). */
    readonly answerDocument: (streamUrl: string) => AnswerDocument
    /** What the answer webhook returns for a call that has no run to talk to: end it, saying nothing. */
    readonly hangUpDocument: AnswerDocument
    /** Whether a webhook comes from the carrier (a signature over its URL and parameters). */
    readonly verifyWebhook: (webhook: CarrierWebhook) => Effect.Effect<void, InvalidCarrierSignature>
    /** The call a webhook's parameters name (Twilio's `CallSid`), or null when they name none validly. */
    readonly callIdOf: (params: ReadonlyArray<readonly [string, string]>) => string | null
    /** A status callback's parameters, read. */
    readonly parseStatus: (
      params: ReadonlyArray<readonly [string, string]>
    ) => Effect.Effect<StatusCallback, InvalidCarrierCallback>
    /** What the call cost; null while the carrier has not settled it. */
    readonly callPrice: (callId: string) => Effect.Effect<CallPrice | null, CarrierRequestError>
    /** The call as the carrier has it now (its status, billed duration and price). */
    readonly fetchCall: (callId: string) => Effect.Effect<CarrierCall, CarrierRequestError>
    /** The carrier's newest calls from `from` to `to`, whatever their status (a lost dial's look-up). */
    readonly findCalls: (query: {
      readonly to: string
      readonly from: string
    }) => Effect.Effect<ReadonlyArray<CarrierCall>, CarrierRequestError>
  }
>() {}
