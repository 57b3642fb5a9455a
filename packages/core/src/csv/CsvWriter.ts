/** A field needs quotes when it holds a delimiter, a quote, or would otherwise read back differently. */
const needsQuotes = (field: string) => /[",\r\n]/.test(field)

/** One field: quoted (quotes doubled) when it has to be, as is otherwise. */
export const field = (value: string): string =>
  needsQuotes(value) ? `"${value.replace(/"/g, '""')}"` : value

/**
 * One record and its CRLF (RFC 4180). A record of one empty field is written `""`, so that it does not
 * read back as an empty line.
 */
export const record = (fields: ReadonlyArray<string>): string =>
  (fields.length === 1 && fields[0] === "" ? '""' : fields.map(field).join(",")) + "\r\n"

/** A whole document: every record followed by CRLF. `CsvReader.parse` reads it back unchanged. */
export const format = (records: ReadonlyArray<ReadonlyArray<string>>): string => records.map(record).join("")
