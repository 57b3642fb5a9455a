import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { EventStreamReader, type ServerEvent } from "../../src/api/EventStream.js"

const bytes = (text: string) => new TextEncoder().encode(text)

/** Reads a stream given as chunks of bytes. */
const read = (chunks: ReadonlyArray<Uint8Array>): Array<ServerEvent> => {
  const reader = new EventStreamReader()
  return [...chunks.flatMap((chunk) => reader.push(chunk)), ...reader.end()]
}

const stream =
  'event: delta\ndata: {"text":"Zażółć "}\n\n: a comment\nevent: delta\r\ndata: {"text":"gęślą"}\r\n\r\nevent: done\rdata: {"a":1}\rdata: {"b":2}\r\rdata: no name\n\n'

const expected: ReadonlyArray<ServerEvent> = [
  { event: "delta", data: '{"text":"Zażółć "}' },
  { event: "delta", data: '{"text":"gęślą"}' },
  { event: "done", data: '{"a":1}\n{"b":2}' },
  { event: "message", data: "no name" }
]

describe("reading server-sent events as they arrive", () => {
  it("reads events, comments, every line ending, several data lines and unnamed events", () => {
    expect(read([bytes(stream)])).toEqual(expected)
  })

  it("drops an event without its closing empty line when the stream ends, and an event without data", () => {
    expect(read([bytes("event: delta\n\nevent: delta\ndata: cut")])).toEqual([])
  })

  it.prop(
    "reads the same events however the bytes are cut (inside lines, CRLFs and characters)",
    [FastCheck.array(FastCheck.nat(200), { maxLength: 12 })],
    ([cuts]) => {
      const all = bytes(stream)
      const points = [...new Set(cuts.map((cut) => cut % (all.length + 1)))].sort((a, b) => a - b)
      const chunks: Array<Uint8Array> = []
      let start = 0
      for (const point of [...points, all.length]) {
        chunks.push(all.slice(start, point))
        start = point
      }
      expect(read(chunks)).toEqual(expected)
    }
  )
})
