import { Either } from "effect"
import * as CsvReader from "../csv/CsvReader.js"
import * as E164 from "../phone-numbers/E164.js"
import { InvalidContactFile } from "./CampaignErrors.js"

/** The most contacts one request may add (a JSON list or a CSV file's rows). */
export const maxContactsPerRequest = 10_000

/** The most contacts one campaign may hold. */
export const maxContactsPerCampaign = 100_000

/** A CSV file's bounds: the header and `maxContactsPerRequest` rows, 50 columns, 1,000 characters a cell. */
export const csvLimits: CsvReader.CsvLimits = {
  maxRecords: maxContactsPerRequest + 1,
  maxFields: 50,
  maxFieldLength: 1000
}

/** The most a contact's `initial_context` may take, as JSON. */
export const maxInitialContextBytes = 8 * 1024

/** The CSV column holding the number; every other column becomes a key of `initial_context`. */
export const phoneColumn = "phone_number"

/** One contact as a request gives it; `row` is its 1-based position (the first row after a CSV header is 1). */
export interface ImportRow {
  readonly row: number
  readonly phone_number: string
  readonly initial_context: Readonly<Record<string, unknown>>
}

/** A row left out, and why. */
export interface RejectedRow {
  readonly row: number
  readonly phone_number: string
  readonly detail: string
}

/** A contact ready to be stored: its number in E.164. */
export interface AcceptedRow {
  readonly row: number
  readonly phone_number: E164.E164
  readonly initial_context: Readonly<Record<string, unknown>>
}

/** What an import will do: the contacts to add, the duplicates within the request, the rows refused. */
export interface ImportPlan {
  readonly accepted: ReadonlyArray<AcceptedRow>
  readonly duplicates: number
  readonly rejected: ReadonlyArray<RejectedRow>
}

const contextBytes = (context: Readonly<Record<string, unknown>>) =>
  new TextEncoder().encode(JSON.stringify(context)).length

/**
 * Normalises every number to E.164 and keeps the first of each number: later rows with the same number
 * are duplicates. A row with an invalid number or an oversized context is rejected with its row number;
 * the others go on. The phone number is also put into the context as `phone_number`, as a call does.
 */
export const plan = (rows: ReadonlyArray<ImportRow>): ImportPlan => {
  const seen = new Set<string>()
  const accepted: Array<AcceptedRow> = []
  const rejected: Array<RejectedRow> = []
  let duplicates = 0
  for (const row of rows) {
    const number = E164.normalize(row.phone_number)
    if (Either.isLeft(number)) {
      rejected.push({ row: row.row, phone_number: row.phone_number, detail: number.left.message })
      continue
    }
    const initial_context = { ...row.initial_context, phone_number: number.right }
    if (contextBytes(initial_context) > maxInitialContextBytes) {
      rejected.push({
        row: row.row,
        phone_number: row.phone_number,
        detail: `initial_context takes more than ${maxInitialContextBytes} bytes as JSON`
      })
      continue
    }
    if (seen.has(number.right)) {
      duplicates++
      continue
    }
    seen.add(number.right)
    accepted.push({ row: row.row, phone_number: number.right, initial_context })
  }
  return { accepted, duplicates, rejected }
}

/**
 * The rows of a CSV file: the header names the columns (trimmed; `phone_number` required, no name twice);
 * every other record is one contact whose other columns become its `initial_context` (as strings). Blank
 * lines are skipped. A malformed file, a record with another number of fields than the header, or more
 * than `maxContactsPerRequest` rows refuse the whole file: nothing of it is imported.
 */
export const rowsOfCsv = (text: string): Either.Either<ReadonlyArray<ImportRow>, InvalidContactFile> => {
  const parsed = CsvReader.parse(text, csvLimits)
  if (Either.isLeft(parsed)) return Either.left(new InvalidContactFile({ detail: parsed.left.message }))
  const [header, ...records] = parsed.right
  if (header === undefined) return Either.left(new InvalidContactFile({ detail: "The CSV file is empty" }))
  const columns = header.map((name) => name.trim())
  const phoneAt = columns.indexOf(phoneColumn)
  if (phoneAt === -1) {
    return Either.left(new InvalidContactFile({ detail: `The CSV header has no ${phoneColumn} column` }))
  }
  const repeated = columns.find((name, i) => columns.indexOf(name) !== i)
  if (repeated !== undefined) {
    return Either.left(new InvalidContactFile({ detail: `The CSV header names column "${repeated}" twice` }))
  }
  if (columns.some((name) => name === "")) {
    return Either.left(new InvalidContactFile({ detail: "The CSV header has a column without a name" }))
  }
  const rows: Array<ImportRow> = []
  for (const [index, record] of records.entries()) {
    if (record.length === 1 && record[0] === "") continue
    if (record.length !== columns.length) {
      return Either.left(
        new InvalidContactFile({
          detail: `The CSV file is malformed at record ${index + 2}: ${record.length} fields where the header has ${columns.length}`
        })
      )
    }
    const initial_context: Record<string, string> = {}
    columns.forEach((name, i) => {
      // defined, not assigned: a column named `__proto__` is a key like any other
      if (i !== phoneAt) {
        Object.defineProperty(initial_context, name, {
          value: record[i]!,
          enumerable: true,
          writable: true,
          configurable: true
        })
      }
    })
    rows.push({ row: rows.length + 1, phone_number: record[phoneAt]!, initial_context })
  }
  return Either.right(rows)
}
