import { Data, Either } from "effect"

/**
 * TwiML, the XML Twilio is answered with: connect a call's audio to the run's media socket
 * (`<Connect><Stream>`, bidirectional Media Streams), and a blind transfer (`<Dial>`). Every value is
 * XML-escaped, so nothing in a URL or a number can add an element.
 */

/** The content type of a TwiML answer. */
export const contentType = "text/xml; charset=utf-8"

const declaration = `<?xml version="1.0" encoding="UTF-8"?>`

/** `text` safe inside an XML attribute or element: the five special characters escaped. */
export const escapeXml = (text: string): string =>
  text.replace(/[&<>"']/g, (character) => {
    switch (character) {
      case "&":
        return "&amp;"
      case "<":
        return "&lt;"
      case ">":
        return "&gt;"
      case '"':
        return "&quot;"
      default:
        return "&apos;"
    }
  })

// Characters XML 1.0 does not allow at all (control characters but tab, newline and carriage return).
const forbidden = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/

/** Why a TwiML document cannot be written (the engine built a bad URL or number: a defect, not input). */
export class InvalidTwiml extends Data.TaggedError("InvalidTwiml")<{ readonly reason: string }> {
  override get message() {
    return `Invalid TwiML: ${this.reason}`
  }
}

/**
 * Connects the call's audio to `streamUrl`, a `ws://` or `wss://` URL (Twilio keeps its path, not its
 * query string, so the run's capability goes in the path).
 */
export const connectStream = (streamUrl: string): Either.Either<string, InvalidTwiml> =>
  !/^wss?:\/\/[^\s]+$/.test(streamUrl) || forbidden.test(streamUrl)
    ? Either.left(new InvalidTwiml({ reason: "the stream URL must be a ws:// or wss:// URL without spaces" }))
    : Either.right(
        `${declaration}<Response><Connect><Stream url="${escapeXml(streamUrl)}"/></Connect></Response>`
      )

/** Transfers the call to `number` (E.164) and leaves it: the document a blind transfer sends as `Twiml`. */
export const dial = (number: string): Either.Either<string, InvalidTwiml> =>
  /^\+[1-9][0-9]{1,14}$/.test(number)
    ? Either.right(`<Response><Dial>${escapeXml(number)}</Dial></Response>`)
    : Either.left(new InvalidTwiml({ reason: "the number must be in E.164 form" }))

/** Ends the call at once, saying nothing: the answer to a call that has no run to talk to (ended, unknown). */
export const hangUp = `${declaration}<Response><Hangup/></Response>`
