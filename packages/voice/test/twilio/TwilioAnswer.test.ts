import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import * as TwilioAnswer from "../../src/twilio/TwilioAnswer.js"

const right = <A, E>(either: Either.Either<A, E>): A => {
  if (Either.isLeft(either)) throw new Error("expected a document")
  return either.right
}

describe("TwilioAnswer", () => {
  it("connects the call's audio to the run's stream URL", () => {
    expect(
      right(TwilioAnswer.connectStream("wss://voice.example.com/telephony/twilio/stream/42/1764259200.abc_-"))
    ).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Connect><Stream url="wss://voice.example.com/telephony/twilio/stream/42/1764259200.abc_-"/></Connect></Response>'
    )
    expect(right(TwilioAnswer.connectStream("ws://127.0.0.1:8080/s/1/t"))).toContain(
      'url="ws://127.0.0.1:8080/s/1/t"'
    )
  })

  it("escapes what XML gives meaning to, so a URL cannot add an element", () => {
    const document = right(TwilioAnswer.connectStream(`wss://x.example/a?b=1&c="2"<Hangup/>'`))
    expect(document).toContain('url="wss://x.example/a?b=1&amp;c=&quot;2&quot;&lt;Hangup/&gt;&apos;"')
    expect(document).not.toContain("<Hangup/>")
    expect(TwilioAnswer.escapeXml(`<a href="x">&'</a>`)).toBe(
      "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;"
    )
  })

  it("refuses a stream URL that is not ws(s) or holds spaces or control characters", () => {
    for (const bad of [
      "https://x.example/s",
      "wss://x.example/a b",
      "wss://x.example/\u0001",
      "",
      "wss://"
    ]) {
      expect(Either.isLeft(TwilioAnswer.connectStream(bad))).toBe(true)
    }
  })

  it("writes a blind transfer's Dial, to E.164 numbers only", () => {
    expect(right(TwilioAnswer.dial("+48500000123"))).toBe("<Response><Dial>+48500000123</Dial></Response>")
    for (const bad of ["48500000123", "+0123", "+48 500 000 123", "+48500000123</Dial><Play>x", ""]) {
      expect(Either.isLeft(TwilioAnswer.dial(bad))).toBe(true)
    }
  })

  it("hangs up a call with no run to talk to, saying nothing", () => {
    expect(TwilioAnswer.hangUp).toBe(`<?xml version="1.0" encoding="UTF-8"?><Response><Hangup/></Response>`)
  })

  it("answers as XML", () => {
    expect(TwilioAnswer.contentType).toBe("text/xml; charset=utf-8")
  })
})
