import type { CallPrice } from "@voice-agent-platform/core/voice/Carrier.js"
import { CarrierCallStatus } from "@voice-agent-platform/core/voice/Carrier.js"
import {
  type CarrierRequestError,
  CarrierUnavailable
} from "@voice-agent-platform/core/voice/CarrierErrors.js"
import { Data, Effect, Either, Redacted, Schema } from "effect"
import * as TwilioHttp from "./TwilioHttp.js"

/**
 * Twilio Programmable Voice's REST API, the part a call needs: create a call
 * (`POST {base}/2010-04-01/Accounts/{AccountSid}/Calls.json`, form-encoded, Basic auth), update it (hang
 * up with `Status=completed`, transfer with `Twiml`) and read it (its status, duration and price). The
 * base URL is the operator's configuration (`TWILIO_API_BASE_URL`; tests point it at the fake), so it is
 * not a tenant's outbound request, but every request keeps a deadline and a cap on the answer read. The
 * auth token goes only into the `Authorization` header: no error, log or span ever holds it.
 */

/** Where Twilio is and how a request is bounded. */
export interface Options {
  /** `AC` and 32 hexadecimal digits. */
  readonly accountSid: string
  readonly authToken: Redacted.Redacted<string>
  /** Default `https://api.twilio.com`: an http(s) URL without credentials, query or fragment. */
  readonly baseUrl?: string
  /** Each request's deadline, from sending it to the last byte of the answer. Default 10000. */
  readonly timeoutMs?: number
  /** The most answer bytes read. Default 1 MiB. */
  readonly maxResponseBytes?: number
}

export const defaults = {
  baseUrl: "https://api.twilio.com",
  timeoutMs: 10_000,
  maxResponseBytes: 1024 * 1024
} as const

/** The status events a call placed here reports to its `StatusCallback`. */
export const statusEvents = ["initiated", "ringing", "answered", "completed"] as const

/** Options that cannot work. Its reason never holds the auth token. */
export class InvalidOptions extends Data.TaggedError("InvalidOptions")<{ readonly reason: string }> {
  override get message() {
    return `Invalid Twilio options: ${this.reason}`
  }
}

/** A call to create. */
export interface CreateCall {
  readonly to: string
  readonly from: string
  /** The answer webhook: Twilio POSTs there when the call connects and plays the TwiML it answers. */
  readonly url: string
  /** Where Twilio POSTs the call's status events. */
  readonly statusCallback: string
  /** The longest the call may last once connected, in seconds (`TimeLimit`). */
  readonly timeLimitSeconds?: number
  /** How long it rings before Twilio gives up, in seconds (`Timeout`). */
  readonly ringTimeoutSeconds?: number
}

/** What the API says of a call (the fields read; the rest is ignored). */
export const CallResource = Schema.Struct({
  sid: Schema.String.pipe(Schema.pattern(/^CA[0-9a-f]{32}$/)),
  status: CarrierCallStatus,
  /** Seconds, as text; null until the call has ended. */
  duration: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  /** What the call cost, negative as Twilio writes charges (`"-0.01750"`); null until settled. */
  price: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  price_unit: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  /** When Twilio created the call, RFC 2822 (`Fri, 27 Nov 2026 15:04:05 +0000`); null when absent. */
  date_created: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null })
})
export type CallResource = typeof CallResource.Type

const decodeCall = Schema.decodeUnknownEither(Schema.parseJson(CallResource), { onExcessProperty: "ignore" })
const decodeList = Schema.decodeUnknownEither(
  Schema.parseJson(Schema.Struct({ calls: Schema.Array(CallResource) })),
  {
    onExcessProperty: "ignore"
  }
)

/** The most calls one look-up (`findCalls`) reads: a single page, the newest first. */
export const findPageSize = 50

/** When the call was created, or null when Twilio did not say (or said it in a form not read). */
export const createdAtOf = (call: CallResource): Date | null => {
  if (call.date_created === null) return null
  const millis = Date.parse(call.date_created)
  return Number.isNaN(millis) ? null : new Date(millis)
}

/** A call's price as the port gives it: the charge's size and its currency; null while Twilio has none. */
export const priceOf = (call: CallResource): CallPrice | null => {
  if (call.price === null || call.price_unit === null) return null
  if (!/^-?[0-9]{1,9}(\.[0-9]{1,10})?$/.test(call.price) || !/^[A-Z]{3}$/.test(call.price_unit)) return null
  return { amount: Math.abs(Number(call.price)), currency: call.price_unit }
}

export interface Client {
  /** Creates the call; answers Twilio's view of it (its sid, and `queued` as a rule). */
  readonly createCall: (call: CreateCall) => Effect.Effect<CallResource, CarrierRequestError>
  /** Ends the call (`Status=completed`): hangs up one in progress, cancels one still ringing. */
  readonly hangUp: (callSid: string) => Effect.Effect<CallResource, CarrierRequestError>
  /** Replaces what the call does with `twiml` (a blind transfer's `<Dial>`). */
  readonly redirect: (callSid: string, twiml: string) => Effect.Effect<CallResource, CarrierRequestError>
  /** Reads the call. */
  readonly fetchCall: (callSid: string) => Effect.Effect<CallResource, CarrierRequestError>
  /** What the call cost; null while Twilio has not settled it. */
  readonly callPrice: (callSid: string) => Effect.Effect<CallPrice | null, CarrierRequestError>
  /**
   * The newest calls (at most `findPageSize`) from `from` to `to`
   * (`GET …/Calls.json?To=…&From=…&PageSize=…`), whatever their status: how a dial whose answer was lost
   * is looked for.
   */
  readonly findCalls: (
    to: string,
    from: string
  ) => Effect.Effect<ReadonlyArray<CallResource>, CarrierRequestError>
}

/** Whether `value` is an http(s) URL without credentials, query or fragment. */
export const isBaseUrl = (value: string): boolean => {
  try {
    const url = new URL(value)
    return (
      (url.protocol === "http:" || url.protocol === "https:") &&
      url.username === "" &&
      url.password === "" &&
      url.search === "" &&
      url.hash === ""
    )
  } catch {
    return false
  }
}

const callSidPattern = /^CA[0-9a-f]{32}$/

/** The client, its options checked. */
export const make = (options: Options): Effect.Effect<Client, InvalidOptions> =>
  Effect.gen(function* () {
    const baseUrl = options.baseUrl ?? defaults.baseUrl
    const timeoutMs = options.timeoutMs ?? defaults.timeoutMs
    const maxResponseBytes = options.maxResponseBytes ?? defaults.maxResponseBytes
    if (!/^AC[0-9a-f]{32}$/.test(options.accountSid)) {
      return yield* new InvalidOptions({ reason: "the account SID must be AC and 32 hexadecimal digits" })
    }
    if (Redacted.value(options.authToken) === "")
      return yield* new InvalidOptions({ reason: "the auth token is empty" })
    if (!isBaseUrl(baseUrl)) {
      return yield* new InvalidOptions({ reason: "the base URL must be an http(s) URL without credentials" })
    }
    if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 600_000) {
      return yield* new InvalidOptions({ reason: "timeoutMs must be a whole number from 1 to 600000" })
    }
    if (
      !Number.isInteger(maxResponseBytes) ||
      maxResponseBytes < 1024 ||
      maxResponseBytes > 64 * 1024 * 1024
    ) {
      return yield* new InvalidOptions({
        reason: "maxResponseBytes must be a whole number from 1024 to 64 MiB"
      })
    }
    const authorization = `Basic ${Buffer.from(`${options.accountSid}:${Redacted.value(options.authToken)}`).toString("base64")}`
    const calls = `${baseUrl.replace(/\/+$/, "")}/2010-04-01/Accounts/${options.accountSid}/Calls`

    const request = (method: "GET" | "POST", url: string, form?: URLSearchParams) =>
      Effect.flatMap(
        TwilioHttp.send({
          method,
          url,
          authorization,
          ...(form === undefined ? {} : { form }),
          timeoutMs,
          maxResponseBytes
        }),
        (answer) =>
          Either.match(decodeCall(answer.body), {
            onLeft: () =>
              Effect.fail(
                new CarrierUnavailable({
                  reason: `Twilio's answer (${answer.status}) is not a call resource`,
                  // a 2xx: the request was carried out, what it did is unknown
                  outcome_unknown: true
                })
              ),
            onRight: Effect.succeed
          })
      )
    /** A request about one call: its sid checked first, since it goes into the path. */
    const aboutCall = (callSid: string, method: "GET" | "POST", form?: URLSearchParams) =>
      callSidPattern.test(callSid)
        ? request(method, `${calls}/${callSid}.json`, form)
        : Effect.fail(new CarrierUnavailable({ reason: "the call SID is not CA and 32 hexadecimal digits" }))

    const createCall = (call: CreateCall) => {
      const form = new URLSearchParams([
        ["To", call.to],
        ["From", call.from],
        ["Url", call.url],
        ["Method", "POST"],
        ["StatusCallback", call.statusCallback],
        ["StatusCallbackMethod", "POST"],
        ...statusEvents.map((event): [string, string] => ["StatusCallbackEvent", event])
      ])
      if (call.timeLimitSeconds !== undefined) form.append("TimeLimit", String(call.timeLimitSeconds))
      if (call.ringTimeoutSeconds !== undefined) form.append("Timeout", String(call.ringTimeoutSeconds))
      return request("POST", `${calls}.json`, form)
    }
    const fetchCall = (callSid: string) => aboutCall(callSid, "GET")
    const findCalls = (to: string, from: string) => {
      const query = new URLSearchParams([
        ["To", to],
        ["From", from],
        ["PageSize", String(findPageSize)]
      ])
      return Effect.flatMap(
        TwilioHttp.send({
          method: "GET",
          url: `${calls}.json?${query}`,
          authorization,
          timeoutMs,
          maxResponseBytes
        }),
        (answer) =>
          Either.match(decodeList(answer.body), {
            onLeft: () =>
              Effect.fail(
                new CarrierUnavailable({
                  reason: `Twilio's answer (${answer.status}) is not a list of calls`
                })
              ),
            onRight: (list) => Effect.succeed(list.calls)
          })
      )
    }
    return {
      findCalls,
      createCall,
      hangUp: (callSid) => aboutCall(callSid, "POST", new URLSearchParams([["Status", "completed"]])),
      redirect: (callSid, twiml) => aboutCall(callSid, "POST", new URLSearchParams([["Twiml", twiml]])),
      fetchCall,
      callPrice: (callSid) => Effect.map(fetchCall(callSid), priceOf)
    }
  })
