import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import type { Role, TranscriptFragment, TranscriptTurn } from "../../src/transcripts/Transcript.js"
import { parse, render } from "../../src/transcripts/TranscriptFile.js"
import { MalformedTranscriptLine } from "../../src/transcripts/TranscriptErrors.js"
import { merge } from "../../src/transcripts/TranscriptTurns.js"
import { fragments } from "./arbitraries.js"

const t = (second: number, millis = 0) => new Date(Date.UTC(2025, 0, 1, 12, 0, second, millis))
const f = (role: Role, text: string, second: number, millis = 0): TranscriptFragment => ({
  role,
  text,
  timestamp: t(second, millis)
})

const file = [
  "[2025-01-01T12:00:00.000Z] assistant: Hello, how can I help?",
  "[2025-01-01T12:00:02.500Z] user: I'd like to book a table.",
  "[2025-01-01T12:00:03.000Z] user: For two.",
  ""
].join("\n")

const parsed = (text: string) => Either.getOrThrow(parse(text))
const failure = (text: string) => Either.getOrThrow(Either.flip(parse(text)))
const times = (turns: ReadonlyArray<TranscriptTurn>) =>
  turns.map(({ end, role, start, text }) => ({ role, text, start: start.getTime(), end: end.getTime() }))

describe("TranscriptFile.render", () => {
  it("writes one fragment per line as `[<ISO timestamp>] <role>: <text>`, each line ending in a newline", () => {
    expect(
      render([
        f("assistant", "Hello, how can I help?", 0),
        f("user", "I'd like to book a table.", 2, 500),
        f("user", "For two.", 3)
      ])
    ).toBe(file)
  })

  it("orders and canonicalises like merge, so a line can never break", () => {
    expect(
      render([f("user", "  second\nline ", 2), f("assistant", "first", 1), f("user", " \r\n ", 3)])
    ).toBe("[2025-01-01T12:00:01.000Z] assistant: first\n[2025-01-01T12:00:02.000Z] user: second line\n")
  })

  it("renders no fragments as an empty file", () => {
    expect(render([])).toBe("")
  })
})

describe("TranscriptFile.parse", () => {
  it("reads the lines back into fragments", () => {
    expect(parsed(file)).toEqual([
      f("assistant", "Hello, how can I help?", 0),
      f("user", "I'd like to book a table.", 2, 500),
      f("user", "For two.", 3)
    ])
  })

  it("tolerates CRLF line ends and a missing final newline", () => {
    expect(parsed(file.replaceAll("\n", "\r\n"))).toEqual(parsed(file))
    expect(parsed(file.slice(0, -1))).toEqual(parsed(file))
    expect(parsed("")).toEqual([])
  })

  it("accepts any ISO 8601 offset and truncates fractions beyond milliseconds", () => {
    expect(parsed("[2025-01-01T13:00:00+01:00] user: a\n[2025-01-01T07:00:01.123456-05:00] user: b")).toEqual(
      [f("user", "a", 0), f("user", "b", 1, 123)]
    )
    expect(parsed("[+010000-01-01T00:00:00.000Z] user: far")[0]!.timestamp.getUTCFullYear()).toBe(10000)
    expect(parsed("[0099-06-01T00:00:00.000Z] user: old")[0]!.timestamp.getUTCFullYear()).toBe(99)
  })

  it("keeps the text after the first `: ` as written, brackets and colons included", () => {
    expect(parsed("[2025-01-01T12:00:00Z] user: [2025] assistant: no ")).toEqual([
      f("user", "[2025] assistant: no ", 0)
    ])
    expect(parsed("[2025-01-01T12:00:00Z] user:")).toEqual([f("user", "", 0)])
  })

  it("names the first malformed line (1-based) and its content", () => {
    const error = failure("[2025-01-01T12:00:00Z] user: ok\r\n[2025-01-01T12:00:01Z] system: no\r\n")
    expect(error).toBeInstanceOf(MalformedTranscriptLine)
    expect(error).toMatchObject({
      _tag: "MalformedTranscriptLine",
      line: 2,
      content: "[2025-01-01T12:00:01Z] system: no"
    })
    expect(error.message).toContain("line 2")
  })

  it.each([
    ["no brackets", "2025-01-01T12:00:00Z user: hi"],
    ["no space after the colon", "[2025-01-01T12:00:00Z] user:hi"],
    ["an unknown role", "[2025-01-01T12:00:00Z] agent: hi"],
    ["a timestamp without an offset", "[2025-01-01T12:00:00] user: hi"],
    ["a timestamp without seconds", "[2025-01-01T12:00Z] user: hi"],
    ["30 February", "[2025-02-30T12:00:00Z] user: hi"],
    ["29 February of a common year", "[2025-02-29T12:00:00Z] user: hi"],
    ["hour 24", "[2025-01-01T24:00:00Z] user: hi"],
    ["a leap second", "[2025-01-01T23:59:60Z] user: hi"],
    ["an offset of 24 hours", "[2025-01-01T12:00:00+24:00] user: hi"],
    ["a date out of Date's range", "[+275760-09-13T00:00:01.000Z] user: hi"],
    ["year minus zero", "[-000000-01-01T00:00:00.000Z] user: hi"],
    ["a blank line", ""],
    ["prose", "hello"]
  ])("rejects a line with %s", (_, line) => {
    const good = "[2025-01-01T12:00:00Z] user: ok"
    expect(failure(`${good}\n${line}\n${good}\n`)).toMatchObject({ line: 2, content: line })
  })

  it("accepts 29 February of a leap year", () => {
    expect(parsed("[2024-02-29T12:00:00Z] user: hi")[0]!.timestamp).toEqual(new Date("2024-02-29T12:00:00Z"))
  })
})

describe("TranscriptFile properties", () => {
  it.prop("merge(parse(render(f))) equals merge(f)", [fragments], ([input]) => {
    expect(times(merge(parsed(render(input))))).toEqual(times(merge(input)))
  })

  it.prop("render ∘ parse ∘ render is render", [fragments], ([input]) => {
    const rendered = render(input)
    expect(render(parsed(rendered))).toBe(rendered)
  })

  it.prop("every rendered line is one well-formed fragment", [fragments], ([input]) => {
    const rendered = render(input)
    if (rendered === "") return
    expect(rendered.endsWith("\n")).toBe(true)
    const lines = rendered.slice(0, -1).split("\n")
    expect(parsed(rendered)).toHaveLength(lines.length)
    for (const line of lines) expect(line).toMatch(/^\[[^\]]+\] (user|assistant): \S(.*\S)?$/su)
  })

  it.prop(
    "the merged turns of a rendered file never put two turns of one role side by side",
    [fragments],
    ([input]) => {
      const turns = merge(parsed(render(input)))
      for (let i = 1; i < turns.length; i++) expect(turns[i]!.role).not.toBe(turns[i - 1]!.role)
      for (const turn of turns) expect(turn.start.getTime()).toBeLessThanOrEqual(turn.end.getTime())
    }
  )
})
