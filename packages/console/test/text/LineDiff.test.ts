import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { lineDiff, maxCells, withContext } from "../../src/text/LineDiff.js"

const lines = FastCheck.array(FastCheck.constantFrom("a", "b", "c", "d", ""), { maxLength: 25 })

describe("comparing two versions of a prompt line by line", () => {
  it("marks an added line, a removed line and a changed line", () => {
    expect(lineDiff("You are Ada.\nBe brief.", "You are Ada.\nBe brief.\nConfirm twice.")).toEqual([
      { kind: "same", text: "You are Ada." },
      { kind: "same", text: "Be brief." },
      { kind: "added", text: "Confirm twice." }
    ])
    expect(lineDiff("one\ntwo\nthree", "one\nTWO\nthree")).toEqual([
      { kind: "same", text: "one" },
      { kind: "removed", text: "two" },
      { kind: "added", text: "TWO" },
      { kind: "same", text: "three" }
    ])
    expect(lineDiff("", "")).toEqual([])
  })

  it.prop(
    "keeps every line of both texts in order, and keeps as many as a longest common subsequence",
    [lines, lines],
    ([a, b]) => {
      const diff = lineDiff(a.join("\n"), b.join("\n"))
      const before = a.join("\n") === "" ? [] : a.join("\n").split("\n")
      const after = b.join("\n") === "" ? [] : b.join("\n").split("\n")
      expect(diff.filter((l) => l.kind !== "added").map((l) => l.text)).toEqual(before)
      expect(diff.filter((l) => l.kind !== "removed").map((l) => l.text)).toEqual(after)
      // a longest common subsequence, by the textbook recurrence
      const lcs = (x: ReadonlyArray<string>, y: ReadonlyArray<string>): number => {
        const table = Array.from({ length: x.length + 1 }, () => new Array<number>(y.length + 1).fill(0))
        for (let i = 1; i <= x.length; i++)
          for (let j = 1; j <= y.length; j++)
            table[i]![j] =
              x[i - 1] === y[j - 1]
                ? table[i - 1]![j - 1]! + 1
                : Math.max(table[i - 1]![j]!, table[i]![j - 1]!)
        return table[x.length]![y.length]!
      }
      expect(diff.filter((l) => l.kind === "same")).toHaveLength(lcs(before, after))
    }
  )

  it("compares texts too large to compare line by line as removed then added, still in order", () => {
    const size = Math.ceil(Math.sqrt(maxCells)) + 10
    const before = Array.from({ length: size }, (_, i) => `old ${i}`).join("\n")
    const after = Array.from({ length: size }, (_, i) => `new ${i}`).join("\n")
    const diff = lineDiff(`top\n${before}\nbottom`, `top\n${after}\nbottom`)
    expect(diff[0]).toEqual({ kind: "same", text: "top" })
    expect(diff.at(-1)).toEqual({ kind: "same", text: "bottom" })
    expect(diff.slice(1, size + 1).every((l) => l.kind === "removed")).toBe(true)
    expect(diff.slice(size + 1, -1).every((l) => l.kind === "added")).toBe(true)
  })

  it("shortens long unchanged stretches to the lines around the changes", () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i}`)
    const after = [...before]
    after[10] = "changed"
    const parts = withContext(lineDiff(before.join("\n"), after.join("\n")), 2)
    expect(parts).toEqual([
      { kind: "skipped", count: 8 },
      { kind: "same", text: "line 8" },
      { kind: "same", text: "line 9" },
      { kind: "removed", text: "line 10" },
      { kind: "added", text: "changed" },
      { kind: "same", text: "line 11" },
      { kind: "same", text: "line 12" },
      { kind: "skipped", count: 7 }
    ])
  })
})
