import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as ServerSentEvents from "../src/ServerSentEvents.js"

/** Every event's data after feeding `pieces` one by one, then the end. */
const parse = (pieces: ReadonlyArray<string>) => {
  let parser = ServerSentEvents.initial
  const events: Array<string> = []
  for (const piece of pieces) {
    const [next, completed] = ServerSentEvents.feed(parser, piece)
    parser = next
    events.push(...completed)
  }
  return [...events, ...ServerSentEvents.end(parser)]
}

/** `text` cut at the given offsets. */
const cut = (text: string, offsets: ReadonlyArray<number>) => {
  const points = [...new Set(offsets.map((offset) => offset % (text.length + 1)))].sort((a, b) => a - b)
  return [0, ...points, text.length]
    .slice(1)
    .map((end, index, ends) => text.slice(index === 0 ? 0 : ends[index - 1], end))
}

describe("ServerSentEvents", () => {
  it("reads data events, drops one space after the colon, joins data lines with LF", () => {
    expect(parse(['data: {"a":1}\n\n', "data:no-space\n\n", "data: one\ndata: two\n\n"])).toEqual([
      '{"a":1}',
      "no-space",
      "one\ntwo"
    ])
  })

  it("reads past comments, other fields and events without data", () => {
    expect(
      parse([
        ": keep-alive\n\n",
        "event: message\nid: 7\nretry: 100\ndata: x\n\n",
        "event: ping\n\n",
        "data\n\n"
      ])
    ).toEqual(["x", ""])
  })

  it("ends lines with CRLF, LF or CR, also when a CRLF is split between two pieces", () => {
    expect(parse(["data: a\r\n\r\ndata: b\r\rdata: c\n\n"])).toEqual(["a", "b", "c"])
    expect(parse(["data: a\r", "\n\r", "\n", "data: b\r", "\r"])).toEqual(["a", "b"])
  })

  it("keeps an event the stream ended in the middle of, and nothing when nothing is pending", () => {
    expect(parse(["data: [DONE]"])).toEqual(["[DONE]"])
    expect(parse(["data: [DONE]\n"])).toEqual(["[DONE]"])
    expect(parse(["data: x\n\n", ": bye"])).toEqual(["x"])
  })

  const text =
    'data: {"choices":[{"delta":{"content":"Dzień dobry"}}]}\r\n\r\n: ping\n\ndata: {"a":\ndata: 2}\n\rdata: [DONE]\n\n'
  it.prop(
    "gives the same events however the text is split into pieces",
    [FastCheck.array(FastCheck.nat({ max: 400 }), { maxLength: 30 })],
    ([offsets]) => {
      expect(parse(cut(text, offsets))).toEqual(parse([text]))
      expect(parse([text])).toEqual([
        '{"choices":[{"delta":{"content":"Dzień dobry"}}]}',
        '{"a":\n2}',
        "[DONE]"
      ])
    }
  )
})
