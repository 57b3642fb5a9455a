/** The readable text of JSON: one `path: value` line per leaf. */
import { Either } from "effect"
import { type Extraction } from "./Extraction.js"
import { MalformedDocument } from "./KnowledgeBaseErrors.js"
import { tidy, oneLine } from "./PlainText.js"

const identifier = /^[A-Za-z_$][\w$]*$/

const keyPath = (path: string, key: string) =>
  identifier.test(key) ? (path === "" ? key : `${path}.${key}`) : `${path}[${JSON.stringify(key)}]`

const scalarText = (value: unknown): string =>
  typeof value === "string" ? oneLine(value) : value === null ? "null" : String(value)

/** One `path: value` line per leaf of a JSON value, in document order (iterative: any depth). */
const flatten = (root: unknown, rootPath: string): Array<string> => {
  const lines: Array<string> = []
  const stack: Array<readonly [string, unknown]> = [[rootPath, root]]
  while (stack.length > 0) {
    const [path, value] = stack.pop()!
    const line = (text: string) => lines.push(path === "" ? text : `${path}: ${text}`)
    if (Array.isArray(value)) {
      if (value.length === 0) line("[]")
      for (let i = value.length - 1; i >= 0; i--) stack.push([`${path}[${i}]`, value[i]])
    } else if (typeof value === "object" && value !== null) {
      const entries = Object.entries(value)
      if (entries.length === 0) line("{}")
      for (let i = entries.length - 1; i >= 0; i--)
        stack.push([keyPath(path, entries[i]![0]), entries[i]![1]])
    } else {
      line(scalarText(value))
    }
  }
  return lines
}

/**
 * JSON as text: one `path: value` line per leaf (`items[0].name: Ada`). Each top-level entry is a
 * paragraph of its own when any entry spans several lines, so chunks break between records.
 */
export const json = (source: string): Either.Either<Extraction, MalformedDocument> => {
  let value: unknown
  try {
    value = JSON.parse(source)
  } catch (error) {
    return Either.left(
      new MalformedDocument({ type: "json", detail: error instanceof Error ? error.message : String(error) })
    )
  }
  const groups: Array<Array<string>> = Array.isArray(value)
    ? value.length === 0
      ? [["[]"]]
      : value.map((item, i) => flatten(item, `[${i}]`))
    : typeof value === "object" && value !== null
      ? Object.keys(value).length === 0
        ? [["{}"]]
        : Object.entries(value).map(([key, item]) => flatten(item, keyPath("", key)))
      : [flatten(value, "")]
  const separator = groups.some((group) => group.length > 1) ? "\n\n" : "\n"
  return Either.right({
    text: tidy(groups.map((group) => group.join("\n")).join(separator)),
    metadata: { value_count: groups.reduce((n, group) => n + group.length, 0) }
  })
}
