import { CarrierCallStatus, type StatusCallback } from "@voice-agent-platform/core/voice/Carrier.js"
import { InvalidCarrierCallback } from "@voice-agent-platform/core/voice/CarrierErrors.js"
import { Effect, Either, ParseResult, Schema } from "effect"

/**
 * A Twilio status callback (a form POST to `StatusCallback`) read into the carrier port's
 * `StatusCallback`: `CallSid`, `CallStatus` and `SequenceNumber` are required (the calls placed here always
 * ask for status events, which carry it); `CallDuration`, `AnsweredBy` and `Timestamp` are read when
 * present. Anything else Twilio sends (`From`, `To`, `Direction`, `AccountSid`, …) is ignored. A body
 * that is not such a callback fails with `InvalidCarrierCallback`, naming the field but never its value.
 */

/** A Call SID: `CA` and 32 hexadecimal digits. */
export const CallSid = Schema.String.pipe(Schema.pattern(/^CA[0-9a-f]{32}$/))

const WholeNumber = Schema.String.pipe(
  Schema.pattern(/^(0|[1-9][0-9]{0,9})$/),
  Schema.compose(Schema.NumberFromString)
)

/** RFC 2822 as Twilio writes it (`Fri, 27 Nov 2026 15:04:05 +0000`), or any date `Date.parse` reads. */
const Timestamp = Schema.transformOrFail(Schema.String, Schema.DateFromSelf, {
  strict: true,
  decode: (text, _, ast) => {
    const millis = Date.parse(text)
    return Number.isNaN(millis)
      ? ParseResult.fail(new ParseResult.Type(ast, text, "not a date"))
      : ParseResult.succeed(new Date(millis))
  },
  encode: (date) => ParseResult.succeed(date.toUTCString())
})

/** The fields read, as the form gives them (text). */
export const Form = Schema.Struct({
  CallSid,
  CallStatus: CarrierCallStatus,
  SequenceNumber: WholeNumber,
  CallDuration: Schema.optional(WholeNumber),
  AnsweredBy: Schema.optional(Schema.String.pipe(Schema.pattern(/^[a-z_]{1,40}$/))),
  Timestamp: Schema.optional(Timestamp)
})

const decodeForm = Schema.decodeUnknownEither(Form, { onExcessProperty: "ignore" })

/** The name of the first field a decoding error is about, or null. */
const fieldOf = (error: ParseResult.ParseError): string | null => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const path = issues[0]?.path[0]
  return typeof path === "string" ? path : null
}

/** A callback's form parameters (the first value of a repeated name counts) read into a status callback. */
export const parse = (
  params: ReadonlyArray<readonly [string, string]>
): Effect.Effect<StatusCallback, InvalidCarrierCallback> => {
  const fields: Record<string, string> = {}
  for (const [name, value] of params) if (!(name in fields)) fields[name] = value
  const decoded = decodeForm(fields)
  if (Either.isLeft(decoded)) {
    const field = fieldOf(decoded.left)
    return Effect.fail(
      new InvalidCarrierCallback({
        reason:
          field === null
            ? "the body is not a Twilio status callback"
            : fields[field] === undefined
              ? `the status callback has no ${field}`
              : `the status callback's ${field} is not valid`
      })
    )
  }
  const form = decoded.right
  return Effect.succeed({
    call_id: form.CallSid,
    call_status: form.CallStatus,
    sequence: form.SequenceNumber,
    duration_seconds: form.CallDuration ?? null,
    answered_by: form.AnsweredBy ?? null,
    timestamp: form.Timestamp ?? null
  })
}

/** A form body (`application/x-www-form-urlencoded`) read into a status callback. */
export const parseBody = (body: string): Effect.Effect<StatusCallback, InvalidCarrierCallback> =>
  parse([...new URLSearchParams(body).entries()])
