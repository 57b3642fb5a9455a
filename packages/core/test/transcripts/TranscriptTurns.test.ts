import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { TranscriptFragment, TranscriptTurn, type Role } from "../../src/transcripts/Transcript.js"
import { canonicalText, merge, shownFragments } from "../../src/transcripts/TranscriptTurns.js"
import { fragments } from "./arbitraries.js"

const t = (second: number, millis = 0) => new Date(Date.UTC(2025, 0, 1, 12, 0, second, millis))
const f = (role: Role, text: string, second: number, millis = 0): TranscriptFragment => ({
  role,
  text,
  timestamp: t(second, millis)
})

describe("TranscriptTurns.merge", () => {
  it("joins consecutive fragments of one role with one space; start/end are the first and last timestamps", () => {
    expect(
      merge([
        f("assistant", "Hello,", 0),
        f("assistant", "how can I help?", 1),
        f("user", "I'd like", 3),
        f("user", "to book", 4),
        f("user", "a table.", 6),
        f("assistant", "Sure.", 7)
      ])
    ).toEqual([
      { role: "assistant", text: "Hello, how can I help?", start: t(0), end: t(1) },
      { role: "user", text: "I'd like to book a table.", start: t(3), end: t(6) },
      { role: "assistant", text: "Sure.", start: t(7), end: t(7) }
    ])
  })

  it("gives nothing for no fragments", () => {
    expect(merge([])).toEqual([])
  })

  it("orders fragments by timestamp first, keeping the given order for equal timestamps", () => {
    expect(
      merge([
        f("user", "second", 2),
        f("assistant", "first", 1),
        f("user", "third", 2),
        f("assistant", "last", 3)
      ])
    ).toEqual([
      { role: "assistant", text: "first", start: t(1), end: t(1) },
      { role: "user", text: "second third", start: t(2), end: t(2) },
      { role: "assistant", text: "last", start: t(3), end: t(3) }
    ])
  })

  it("canonicalises text: trimmed, whitespace runs including newlines made one space", () => {
    expect(merge([f("user", "  Hello\n\n there\t\r\nfriend  ", 0), f("user", " again ", 1)])).toEqual([
      { role: "user", text: "Hello there friend again", start: t(0), end: t(1) }
    ])
  })

  it("drops fragments whose text is empty once canonicalised: they neither split nor create turns", () => {
    expect(
      merge([f("user", "Yes", 0), f("assistant", "  \n ", 1), f("user", "please", 2), f("assistant", "", 3)])
    ).toEqual([{ role: "user", text: "Yes please", start: t(0), end: t(2) }])
  })

  it("drops fragments with an invalid timestamp", () => {
    expect(
      merge([{ role: "user", text: "lost", timestamp: new Date(Number.NaN) }, f("user", "kept", 1)])
    ).toEqual([{ role: "user", text: "kept", start: t(1), end: t(1) }])
  })

  it("produces turns that encode as the API shows them", () => {
    const [turn] = merge([f("user", "Hi", 0, 250)])
    expect(Schema.encodeSync(TranscriptTurn)(turn!)).toEqual({
      role: "user",
      text: "Hi",
      start: "2025-01-01T12:00:00.250Z",
      end: "2025-01-01T12:00:00.250Z"
    })
  })

  it.prop("no two adjacent turns share a role", [fragments], ([input]) => {
    const turns = merge(input)
    for (let i = 1; i < turns.length; i++) expect(turns[i]!.role).not.toBe(turns[i - 1]!.role)
  })

  it.prop("start <= end, and turns follow each other in time", [fragments], ([input]) => {
    const turns = merge(input)
    turns.forEach((turn, i) => {
      expect(turn.start.getTime()).toBeLessThanOrEqual(turn.end.getTime())
      if (i > 0) expect(turns[i - 1]!.end.getTime()).toBeLessThanOrEqual(turn.start.getTime())
    })
  })

  it.prop(
    "turn texts are non-empty, canonical, and keep every word in time order",
    [fragments],
    ([input]) => {
      const turns = merge(input)
      for (const turn of turns) {
        expect(turn.text).not.toBe("")
        expect(canonicalText(turn.text)).toBe(turn.text)
      }
      const words = [...input]
        .sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime())
        .map((fragment) => canonicalText(fragment.text))
        .filter((text) => text !== "")
        .join(" ")
      expect(turns.map((turn) => turn.text).join(" ")).toBe(words)
    }
  )

  it.prop("merging is idempotent on its own output", [fragments], ([input]) => {
    const turns = merge(input)
    const asFragments = turns.map((turn) => ({ role: turn.role, text: turn.text, timestamp: turn.start }))
    expect(merge(asFragments).map(({ role, text }) => ({ role, text }))).toEqual(
      turns.map(({ role, text }) => ({ role, text }))
    )
  })
})

describe("TranscriptTurns.shownFragments", () => {
  it.prop("keeps only canonical, non-empty fragments, sorted by timestamp", [fragments], ([input]) => {
    const normalized = shownFragments(input)
    for (let i = 0; i < normalized.length; i++) {
      const fragment = normalized[i]!
      expect(fragment.text).toBe(canonicalText(fragment.text))
      expect(fragment.text).not.toBe("")
      if (i > 0)
        expect(normalized[i - 1]!.timestamp.getTime()).toBeLessThanOrEqual(fragment.timestamp.getTime())
    }
    expect(normalized.length).toBe(input.filter((fragment) => canonicalText(fragment.text) !== "").length)
  })
})

describe("Transcript schemas", () => {
  it("decodes a fragment with an ISO 8601 timestamp into a Date and rejects unknown roles", () => {
    const decode = Schema.decodeUnknownEither(TranscriptFragment)
    expect(decode({ role: "user", text: "Hi", timestamp: "2025-01-01T13:00:00+01:00" })).toEqual(
      Either.right({ role: "user", text: "Hi", timestamp: t(0) })
    )
    expect(Either.isLeft(decode({ role: "system", text: "Hi", timestamp: "2025-01-01T12:00:00Z" }))).toBe(
      true
    )
    expect(Either.isLeft(decode({ role: "user", text: "Hi", timestamp: "not a date" }))).toBe(true)
  })
})
