import { FastCheck } from "effect"
import type { TranscriptFragment } from "../../src/transcripts/Transcript.js"

/** Texts that stress canonicalisation: blanks, newlines, CR, tabs, line separators, brackets, colons. */
export const fragmentText = FastCheck.oneof(
  FastCheck.string(),
  FastCheck.string({ unit: "binary" }),
  FastCheck.string({
    unit: FastCheck.constantFrom("a", "b", " ", "\n", "\r", "\t", "\u2028", "\u00a0", "[", "]", ":", "user: ")
  }),
  FastCheck.constantFrom("", " ", "\n", "\r\n", "  hello \n  world  ", "[2025-01-01T00:00:00.000Z] user: x")
)

/** A few distinct instants, so that ties and out-of-order timestamps are common. */
export const fragmentTimestamp = FastCheck.oneof(
  FastCheck.date({ noInvalidDate: true }),
  FastCheck.integer({ min: 0, max: 5 }).map((second) => new Date(Date.UTC(2025, 0, 1, 12, 0, second)))
)

export const fragment: FastCheck.Arbitrary<TranscriptFragment> = FastCheck.record({
  role: FastCheck.constantFrom("user" as const, "assistant" as const),
  text: fragmentText,
  timestamp: fragmentTimestamp
})

export const fragments = FastCheck.array(fragment, { maxLength: 30 })
