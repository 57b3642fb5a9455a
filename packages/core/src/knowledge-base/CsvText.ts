/** The readable text of CSV: RFC 4180 records, one `header: value` line per field. */
import type { Extraction } from "./Extraction.js"
import { tidy, oneLine } from "./PlainText.js"

/** RFC 4180 records: quoted fields may hold delimiters, quotes (doubled) and line breaks. */
export const parseCsv = (source: string, delimiter = ","): Array<Array<string>> => {
  const rows: Array<Array<string>> = []
  let row: Array<string> = []
  let field = ""
  let quoted = false
  let i = 0
  const text = source.replace(/^\ufeff/, "")
  while (i < text.length) {
    const c = text[i]!
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"'
          i += 2
          continue
        }
        quoted = false
      } else {
        field += c
      }
      i += 1
      continue
    }
    if (c === '"' && field === "") {
      quoted = true
    } else if (c === delimiter) {
      row.push(field)
      field = ""
    } else if (c === "\n" || c === "\r") {
      row.push(field)
      rows.push(row)
      row = []
      field = ""
      if (c === "\r" && text[i + 1] === "\n") i += 1
    } else {
      field += c
    }
    i += 1
  }
  if (field !== "" || row.length > 0) {
    row.push(field)
    rows.push(row)
  }
  return rows
}

/** The delimiter of a CSV file: whichever of `,` `;` tab is most frequent in its first line. */
export const sniffDelimiter = (source: string): string => {
  const firstLine = source.split(/\r?\n/, 1)[0] ?? ""
  const candidates = [",", ";", "\t"] as const
  let best: string = ","
  let bestCount = 0
  for (const candidate of candidates) {
    const count = firstLine.split(candidate).length - 1
    if (count > bestCount) {
      best = candidate
      bestCount = count
    }
  }
  return best
}

/**
 * CSV as text: the first row names the columns, every other row becomes a paragraph of
 * `column: value` lines (empty values left out), so a chunk keeps each value next to its meaning.
 */
export const csv = (source: string): Extraction => {
  const delimiter = sniffDelimiter(source)
  const rows = parseCsv(source, delimiter).filter((row) => row.some((field) => field.trim() !== ""))
  const header = (rows[0] ?? []).map((name, i) => oneLine(name) || `column ${i + 1}`)
  const records = rows.slice(1).map((row) =>
    row
      .map((value, i) => [header[i] ?? `column ${i + 1}`, oneLine(value)] as const)
      .filter(([, value]) => value !== "")
      .map(([name, value]) => `${name}: ${value}`)
      .join("\n")
  )
  return {
    text: tidy(records.filter((record) => record !== "").join("\n\n")),
    metadata: {
      row_count: records.length,
      column_count: header.length,
      columns: header,
      delimiter: delimiter === "\t" ? "tab" : delimiter
    }
  }
}
