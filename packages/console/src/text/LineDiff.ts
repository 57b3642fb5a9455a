/** One line of a comparison: in both texts, only in the new one, or only in the old one. */
export interface DiffLine {
  readonly kind: "same" | "added" | "removed"
  readonly text: string
}

/** What is shown of a comparison: lines, and the unchanged stretches left out between them. */
export type DiffPart = DiffLine | { readonly kind: "skipped"; readonly count: number }

/** Past this many cells (lines of one × lines of the other, once the common ends are set aside) the
 * middle is shown as removed then added, not compared line by line: bounded work in the browser. */
export const maxCells = 4_000_000

/**
 * The lines of `before` and `after` compared: a longest common subsequence of the lines that differ once the
 * common first and last lines are set aside (edits to prompts are mostly local), every line of both texts
 * in order.
 */
export const lineDiff = (before: string, after: string): ReadonlyArray<DiffLine> => {
  const a = before === "" ? [] : before.split(/\r\n|\n|\r/)
  const b = after === "" ? [] : after.split(/\r\n|\n|\r/)
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start++
  let endA = a.length
  let endB = b.length
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--
    endB--
  }
  const same = (text: string): DiffLine => ({ kind: "same", text })
  const middle = middleDiff(a.slice(start, endA), b.slice(start, endB))
  return [...a.slice(0, start).map(same), ...middle, ...a.slice(endA).map(same)]
}

const middleDiff = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): Array<DiffLine> => {
  const removed = (text: string): DiffLine => ({ kind: "removed", text })
  const added = (text: string): DiffLine => ({ kind: "added", text })
  if (a.length === 0 || b.length === 0 || a.length * b.length > maxCells)
    return [...a.map(removed), ...b.map(added)]
  // lengths[i][j]: the longest common subsequence of a[i..] and b[j..], one flat array
  const width = b.length + 1
  const lengths = new Uint32Array((a.length + 1) * width)
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lengths[i * width + j] =
        a[i] === b[j]
          ? lengths[(i + 1) * width + j + 1]! + 1
          : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!)
  const lines: Array<DiffLine> = []
  let i = 0
  let j = 0
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      lines.push({ kind: "same", text: a[i]! })
      i++
      j++
    } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) lines.push(removed(a[i++]!))
    else lines.push(added(b[j++]!))
  }
  while (i < a.length) lines.push(removed(a[i++]!))
  while (j < b.length) lines.push(added(b[j++]!))
  return lines
}

/** The comparison with unchanged stretches longer than twice `context` lines left out, `context` kept each side. */
export const withContext = (lines: ReadonlyArray<DiffLine>, context = 3): ReadonlyArray<DiffPart> => {
  const parts: Array<DiffPart> = []
  let i = 0
  while (i < lines.length) {
    if (lines[i]!.kind !== "same") {
      parts.push(lines[i++]!)
      continue
    }
    let end = i
    while (end < lines.length && lines[end]!.kind === "same") end++
    const keepBefore = i === 0 ? 0 : context
    const keepAfter = end === lines.length ? 0 : context
    if (end - i > keepBefore + keepAfter + 1) {
      parts.push(...lines.slice(i, i + keepBefore))
      parts.push({ kind: "skipped", count: end - i - keepBefore - keepAfter })
      parts.push(...lines.slice(end - keepAfter, end))
    } else parts.push(...lines.slice(i, end))
    i = end
  }
  return parts
}
