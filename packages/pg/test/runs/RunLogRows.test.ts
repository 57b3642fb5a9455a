import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Either, FastCheck, Schema } from "effect"
import { StoredLogEntry, StoredLogs, StoredLogsBySchema } from "../../src/runs/RunLogRows.js"

const fast = Schema.decodeUnknownEither(StoredLogs)
const bySchema = Schema.decodeUnknownEither(StoredLogsBySchema)

/** Both decoders answer the same: the same lines, or both a failure. */
const same = (column: unknown) => {
  const a = fast(column)
  const b = bySchema(column)
  expect(Either.isRight(a)).toBe(Either.isRight(b))
  if (Either.isRight(a) && Either.isRight(b)) expect(a.right).toStrictEqual(b.right)
}

// Lines as the column keeps them: generated log lines (with and without tool calls) written as JSON.
const stored = Arbitrary.make(StoredLogEntry).map((line) =>
  JSON.parse(JSON.stringify(Schema.encodeSync(StoredLogEntry)(line)))
)
// What a column out of step with the schema could hold: each field broken in turn, and non-lines.
const broken = FastCheck.tuple(
  stored,
  FastCheck.constantFrom(
    { level: "trace" },
    { level: undefined },
    { timestamp: "not an instant" },
    { timestamp: "" },
    { timestamp: 1_700_000_000_000 },
    { timestamp: "2026-02-30T25:00:00Z" },
    { message: 5 },
    { message: undefined },
    { tool_call: undefined },
    { tool_call: {} },
    { tool_call: null },
    { extra: "kept out", another: [1] },
    { timestamp: "2026-11-29T12:00:00.123456Z" },
    { timestamp: "2026-11-29" }
  )
).map(([line, change]) => ({ ...line, ...change }))
const notLine = FastCheck.constantFrom(null, 1, "line", [], {}, true)
const column = FastCheck.oneof(
  { weight: 8, arbitrary: FastCheck.array(FastCheck.oneof(stored, broken, notLine), { maxLength: 8 }) },
  { weight: 1, arbitrary: FastCheck.constantFrom(null, {}, "[]", 3, undefined) }
)

describe("a run's logs read without the schema's walk", () => {
  it("reads plain lines and tool-call lines as the schema does, in their order", () => {
    const column = [
      { timestamp: "2026-11-29T12:00:00.000Z", level: "info", message: "Hello" },
      {
        timestamp: "2026-11-29T12:00:01.500Z",
        level: "info",
        message: "Tool lookup: ok",
        tool_call: {
          tool_uuid: "t1",
          tool_type: "http",
          arguments: { q: "x" },
          outcome: "ok",
          error_type: null,
          status_code: 200,
          duration_ms: 12,
          response: "{}",
          response_truncated: false
        }
      },
      { timestamp: "2026-11-29T12:00:02.000Z", level: "warning", message: "Bye", stray: 1 }
    ]
    same(column)
    const lines = Schema.decodeUnknownSync(StoredLogs)(column)
    expect(lines[0]).toStrictEqual({
      timestamp: new Date("2026-11-29T12:00:00.000Z"),
      level: "info",
      message: "Hello"
    })
    // the default the schema gives a line logged before the bound
    expect(lines[1]!.tool_call?.arguments_truncated).toBe(false)
    expect(Object.keys(lines[2]!)).toEqual(["timestamp", "level", "message"])
  })

  it("fails where the schema fails, naming the line", () => {
    const result = fast([
      { timestamp: "2026-11-29T12:00:00.000Z", level: "info", message: "fine" },
      { timestamp: "2026-11-29T12:00:00.000Z", level: "trace", message: "not a level" }
    ])
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isLeft(result)) expect(result.left.message).toContain("[1]")
    same("not a column")
  })

  it.prop("answers what the schema answers for any column", [column], ([value]) => same(value), {
    fastCheck: { numRuns: 400 }
  })
})
