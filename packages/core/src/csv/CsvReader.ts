import { Either } from "effect"
import { MalformedCsv } from "./CsvErrors.js"

/** How much a CSV document may hold; a document past any bound is refused, not cut. */
export interface CsvLimits {
  /** Records, the header included. */
  readonly maxRecords: number
  /** Fields in one record. */
  readonly maxFields: number
  /** Characters in one field (after unquoting). */
  readonly maxFieldLength: number
}

const byteOrderMark = "\uFEFF"

/**
 * Reads a CSV document (RFC 4180): fields separated by commas, records by CRLF or LF (a lone CR too);
 * a field in double quotes may hold commas, line breaks and doubled quotes (`""` for `"`). A leading
 * byte-order mark is dropped, and so is the line break ending the last record. A quote inside an unquoted
 * field, text after a closing quote and an unterminated quote are malformed. An empty document has no
 * records. Records may differ in length; the caller decides what that means.
 */
export const parse = (
  text: string,
  limits: CsvLimits
): Either.Either<ReadonlyArray<ReadonlyArray<string>>, MalformedCsv> => {
  const input = text.startsWith(byteOrderMark) ? text.slice(1) : text
  const records: Array<Array<string>> = []
  let record: Array<string> = []
  let field = ""
  let i = 0
  const fail = (reason: string) => Either.left(new MalformedCsv({ record: records.length + 1, reason }))
  const tooLong = () => field.length > limits.maxFieldLength
  const endField = (): string | null => {
    if (tooLong()) return `a field is longer than ${limits.maxFieldLength} characters`
    record.push(field)
    field = ""
    return record.length > limits.maxFields ? `a record has more than ${limits.maxFields} fields` : null
  }
  const endRecord = (): string | null => {
    const problem = endField()
    if (problem !== null) return problem
    records.push(record)
    record = []
    return records.length > limits.maxRecords ? `the file has more than ${limits.maxRecords} records` : null
  }
  if (input.length === 0) return Either.right([])
  while (i < input.length) {
    const c = input[i]!
    if (c === '"') {
      if (field.length > 0) return fail("a quote inside an unquoted field")
      // a quoted field: up to the closing quote, `""` standing for one quote
      i++
      for (;;) {
        const close = input.indexOf('"', i)
        if (close === -1) return fail("a quoted field is not closed")
        field += input.slice(i, close)
        if (tooLong()) return fail(`a field is longer than ${limits.maxFieldLength} characters`)
        if (input[close + 1] === '"') {
          field += '"'
          i = close + 2
          continue
        }
        i = close + 1
        break
      }
      const next = input[i]
      if (next !== undefined && next !== "," && next !== "\r" && next !== "\n") {
        return fail("text after a closing quote")
      }
      if (next === undefined) {
        const problem = endRecord()
        return problem === null ? Either.right(records) : fail(problem)
      }
      continue
    }
    if (c === ",") {
      const problem = endField()
      if (problem !== null) return fail(problem)
      i++
      continue
    }
    if (c === "\r" || c === "\n") {
      const problem = endRecord()
      if (problem !== null) return fail(problem)
      i += c === "\r" && input[i + 1] === "\n" ? 2 : 1
      continue
    }
    // plain text up to the next delimiter, in one slice
    let end = i
    while (end < input.length) {
      const d = input[end]
      if (d === "," || d === "\r" || d === "\n" || d === '"') break
      end++
    }
    if (input[end] === '"') return fail("a quote inside an unquoted field")
    field += input.slice(i, end)
    if (tooLong()) return fail(`a field is longer than ${limits.maxFieldLength} characters`)
    i = end
  }
  // the last record, unless the document ended with its line break
  const last = input[input.length - 1]
  if (last !== "\n" && last !== "\r") {
    const problem = endRecord()
    if (problem !== null) return fail(problem)
  }
  return Either.right(records)
}
