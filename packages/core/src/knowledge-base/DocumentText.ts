import { Either, Option, Schema } from "effect"

/** The kinds of file the knowledge base reads. Anything else is stored but fails processing. */
export const DocumentType = Schema.Literal("text", "markdown", "csv", "json", "html")
export type DocumentType = typeof DocumentType.Type

/** The media type recorded for each kind (`mime_type` of a document whose kind was recognised). */
export const mimeTypes: Readonly<Record<DocumentType, string>> = {
  text: "text/plain",
  markdown: "text/markdown",
  csv: "text/csv",
  json: "application/json",
  html: "text/html"
}

/** What people call each kind, for error messages. */
const labels: Readonly<Record<DocumentType, string>> = {
  text: "plain text",
  markdown: "Markdown",
  csv: "CSV",
  json: "JSON",
  html: "HTML"
}

const byExtension: Readonly<Record<string, DocumentType>> = {
  txt: "text",
  text: "text",
  md: "markdown",
  markdown: "markdown",
  mdown: "markdown",
  mkd: "markdown",
  csv: "csv",
  json: "json",
  html: "html",
  htm: "html",
  xhtml: "html"
}

const byMimeType: Readonly<Record<string, DocumentType>> = {
  "text/plain": "text",
  "text/markdown": "markdown",
  "text/x-markdown": "markdown",
  "text/csv": "csv",
  "application/csv": "csv",
  "text/comma-separated-values": "csv",
  "application/json": "json",
  "text/json": "json",
  "text/html": "html",
  "application/xhtml+xml": "html"
}

/** The extensions and media types that are read, for documentation and messages. */
export const supported = {
  extensions: Object.keys(byExtension),
  mime_types: Object.keys(byMimeType)
} as const

/** A media type without parameters, lower-case: `Text/HTML; charset=utf-8` → `text/html`. */
export const essence = (mimeType: string): string => mimeType.split(";")[0]!.trim().toLowerCase()

/** The file name's extension, lower-case, without the dot; empty when it has none. */
export const extensionOf = (filename: string): string => {
  const base = filename.split(/[\\/]/).pop() ?? ""
  const dot = base.lastIndexOf(".")
  return dot <= 0 ? "" : base.slice(dot + 1).toLowerCase()
}

/**
 * The kind of a file: from its extension when that is a known one (browsers often declare
 * `application/octet-stream` for Markdown or CSV), else from the declared media type.
 */
export const detect = (filename: string, declaredMimeType: string): Option.Option<DocumentType> =>
  Option.fromNullable(byExtension[extensionOf(filename)]).pipe(
    Option.orElse(() => Option.fromNullable(byMimeType[essence(declaredMimeType)]))
  )

/** A file of a kind the knowledge base does not read. */
export class UnsupportedDocumentType extends Schema.TaggedError<UnsupportedDocumentType>()(
  "UnsupportedDocumentType",
  { filename: Schema.String, mime_type: Schema.String }
) {
  override get message() {
    return `unsupported_type: ${this.filename} (${this.mime_type}) is not plain text, Markdown, CSV, JSON or HTML`
  }
}

/** Bytes that are not UTF-8 text. */
export class UndecodableDocument extends Schema.TaggedError<UndecodableDocument>()("UndecodableDocument", {
  filename: Schema.String
}) {
  override get message() {
    return `not_utf8: ${this.filename} is not UTF-8 text`
  }
}

/** A file whose content does not follow its format (JSON that does not parse). */
export class MalformedDocument extends Schema.TaggedError<MalformedDocument>()("MalformedDocument", {
  type: DocumentType,
  detail: Schema.String
}) {
  override get message() {
    return `malformed_${this.type}: the file is not valid ${labels[this.type]}: ${this.detail}`
  }
}

/** A file with nothing to index once its markup is gone. */
export class EmptyDocument extends Schema.TaggedError<EmptyDocument>()("EmptyDocument", {
  filename: Schema.String
}) {
  override get message() {
    return `no_text: ${this.filename} has no text to index`
  }
}

/** Why a document's text could not be read; its message becomes the document's `processing_error`. */
export type ExtractionError =
  UnsupportedDocumentType | UndecodableDocument | MalformedDocument | EmptyDocument

/** The readable text of a file and what the parser learned about it. */
export interface Extraction {
  readonly text: string
  readonly metadata: Readonly<Record<string, unknown>>
}

/** The text of a file of a known kind. */
export interface ExtractedDocument extends Extraction {
  readonly type: DocumentType
}

const utf8 = new TextDecoder("utf-8", { fatal: true })

/** Strict UTF-8 (a leading BOM is dropped); NUL characters mean binary data, not text. */
export const decodeUtf8 = (bytes: Uint8Array): Option.Option<string> => {
  try {
    const text = utf8.decode(bytes)
    return text.includes("\u0000") ? Option.none() : Option.some(text)
  } catch {
    return Option.none()
  }
}

/**
 * Tidies extracted text: `\n` line ends, no trailing blanks on a line, at most one empty line in a
 * row (an empty line is a paragraph break, which chunking prefers to split at), trimmed.
 */
export const normalize = (text: string): string =>
  text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim()

const countLines = (text: string) => (text === "" ? 0 : text.split("\n").length)

/** Plain text, tidied. */
export const plainText = (source: string): Extraction => {
  const text = normalize(source)
  return { text, metadata: { line_count: countLines(text) } }
}

// ---------------------------------------------------------------------------------------------------
// Markdown

const escapable = "\\`*_{}[]()#+-.!|>~<"
/** Escaped characters are parked in the private use area so that no markup rule sees them. */
const park = (s: string) =>
  s.replace(/\\([\\`*_{}[\]()#+\-.!|>~<])/g, (_, c: string) =>
    String.fromCharCode(0xe000 + escapable.indexOf(c))
  )
const unpark = (s: string) => s.replace(/[\ue000-\ue013]/g, (c) => escapable[c.charCodeAt(0) - 0xe000] ?? c)

/**
 * A line cut into text and code spans. A code span is a run of backticks closed by the next run of the
 * same length; runs are paired left to right with one pointer per length, so unclosed runs cost
 * linear time.
 */
const codeSpans = (line: string): Array<{ readonly code: boolean; readonly text: string }> => {
  const runs: Array<{ readonly start: number; readonly length: number }> = []
  for (let i = 0; i < line.length;) {
    if (line[i] !== "`") {
      i++
      continue
    }
    let j = i
    while (line[j] === "`") j++
    runs.push({ start: i, length: j - i })
    i = j
  }
  const byLength = new Map<number, Array<number>>()
  runs.forEach((run, k) => {
    const same = byLength.get(run.length)
    if (same === undefined) byLength.set(run.length, [k])
    else same.push(k)
  })
  const next = new Map<number, number>()
  const parts: Array<{ readonly code: boolean; readonly text: string }> = []
  let cursor = 0
  for (let k = 0; k < runs.length;) {
    const run = runs[k]!
    const same = byLength.get(run.length)!
    let p = next.get(run.length) ?? 0
    while (p < same.length && same[p]! <= k) p++
    next.set(run.length, p)
    if (p === same.length) {
      k++
      continue
    }
    const close = runs[same[p]!]!
    parts.push({ code: false, text: line.slice(cursor, run.start) })
    parts.push({ code: true, text: line.slice(run.start + run.length, close.start).trim() })
    cursor = close.start + close.length
    k = same[p]! + 1
  }
  parts.push({ code: false, text: line.slice(cursor) })
  return parts
}

/**
 * Inline markup away: images become their alt text, links their text; tags go; emphasis delimiters
 * (`*`, `_`, `~~`, up to three) go where they open or close a word, so `snake_case` and `2*3*4` stay.
 * Every pattern is linear: the input may be one 10 MB line.
 */
const inlineMarkdown = (line: string): string =>
  codeSpans(line)
    .map(({ code, text }) =>
      code
        ? text
        : unpark(
            park(text)
              .replace(/!\[([^\][]*)\]\([^()\s]*(?:\s+"[^"\n]{0,300}")?\)/g, "$1")
              .replace(/\[([^\][]+)\]\([^()\s]*(?:\s+"[^"\n]{0,300}")?\)/g, "$1")
              .replace(/\[([^\][]+)\]\[[^\][]*\]/g, "$1")
              .replace(/<((?:https?|mailto):[^<>\s]+)>/g, "$1")
              .replace(/<\/?[A-Za-z][^<>]*>/g, "")
              .replace(/(^|[\s\p{P}\p{S}])(?:\*{1,3}|_{1,3}|~~)(?=[^\s*_~])/gu, "$1")
              .replace(/(?<=[^\s*_~])(?:\*{1,3}|_{1,3}|~~)(?=$|[\s\p{P}\p{S}])/gu, "")
          )
    )
    .join("")

const fence = /^\s{0,3}(`{3,}|~{3,})/
const heading = /^\s{0,3}#{1,6}(?:\s+(.*?))?(?:\s+#+)?\s*$/
const thematicBreak = /^\s{0,3}([-*_=])(?:\s*\1){2,}\s*$/
const tableDelimiter = /^\s*(?:\|\s*)?:?-+:?\s*(?:\|\s*:?-+:?\s*)+(?:\|\s*)?$/
const referenceDefinition = /^\s{0,3}\[[^\]]+\]:\s*\S+/
const bullet = /^(\s*)[-*+]\s+(?:\[[ xX]\]\s+)?/

/**
 * Markdown as readable text: headings, emphasis, links (their text), images (their alt text), code
 * (its content), quotes and tables lose their markup; rules, fences, table delimiters and link
 * definitions disappear; bullets become `- `.
 */
export const markdown = (source: string): Extraction => {
  const out: Array<string> = []
  const headings: Array<string> = []
  let inFence: string | null = null
  for (const raw of source.replace(/\r\n?/g, "\n").split("\n")) {
    const fenceMatch = fence.exec(raw)
    if (inFence !== null) {
      if (
        fenceMatch !== null &&
        fenceMatch[1]![0] === inFence[0] &&
        fenceMatch[1]!.length >= inFence.length
      ) {
        inFence = null
      } else {
        out.push(raw)
      }
      continue
    }
    if (fenceMatch !== null) {
      inFence = fenceMatch[1]!
      continue
    }
    // Rules, table delimiters and link definitions are short; long lines skip the backtracking patterns.
    if (
      raw.length <= 1000 &&
      (thematicBreak.test(raw) || tableDelimiter.test(raw) || referenceDefinition.test(raw))
    )
      continue
    let line = raw.replace(/^\s{0,3}(?:>\s?)+/, "")
    const h = heading.exec(line)
    if (h !== null) {
      const text = inlineMarkdown(h[1] ?? "").trim()
      if (text !== "") headings.push(text)
      // a heading starts a paragraph of its own
      out.push("", text, "")
      continue
    }
    line = line.replace(bullet, "$1- ")
    if (/^\s*\|/.test(line)) {
      line = line
        .trim()
        .replace(/^\|/, "")
        .replace(/(?<!\\)\|$/, "")
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim())
        .join(" | ")
    }
    out.push(inlineMarkdown(line))
  }
  const text = normalize(out.join("\n"))
  return { text, metadata: { heading_count: headings.length, title: headings[0] ?? null } }
}

// ---------------------------------------------------------------------------------------------------
// CSV

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

const oneLine = (value: string) => value.replace(/\s+/g, " ").trim()

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
    text: normalize(records.filter((record) => record !== "").join("\n\n")),
    metadata: {
      row_count: records.length,
      column_count: header.length,
      columns: header,
      delimiter: delimiter === "\t" ? "tab" : delimiter
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// JSON

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
    text: normalize(groups.map((group) => group.join("\n")).join(separator)),
    metadata: { value_count: groups.reduce((n, group) => n + group.length, 0) }
  })
}

// ---------------------------------------------------------------------------------------------------
// HTML

const namedEntities: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  copy: "©",
  reg: "®",
  trade: "™",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  lsquo: "‘",
  rsquo: "’",
  sbquo: "‚",
  ldquo: "“",
  rdquo: "”",
  bdquo: "„",
  laquo: "«",
  raquo: "»",
  bull: "•",
  middot: "·",
  deg: "°",
  euro: "€",
  pound: "£",
  yen: "¥",
  cent: "¢",
  sect: "§",
  para: "¶",
  times: "×",
  divide: "÷",
  plusmn: "±",
  shy: ""
}

const codePoint = (n: number) =>
  Number.isInteger(n) && n > 0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff)
    ? String.fromCodePoint(n)
    : "\ufffd"

/** Decodes numeric character references and the common named ones; unknown names stay as written. */
export const decodeEntities = (text: string): string =>
  text.replace(
    /&(?:#(\d{1,7})|#[xX]([0-9A-Fa-f]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));/g,
    (whole, dec, hex, name) =>
      dec !== undefined
        ? codePoint(Number.parseInt(dec, 10))
        : hex !== undefined
          ? codePoint(Number.parseInt(hex, 16))
          : (namedEntities[name as string] ?? whole)
  )

const attributes = String.raw`(?:\s+[^\s"'=/<>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'<>]+))?)*\s*/?>`
const anyTag = new RegExp(String.raw`</?[A-Za-z][^\s/<>]*${attributes}`, "g")
const blockTag = new RegExp(
  String.raw`</?(?:p|div|section|article|header|footer|nav|aside|main|h[1-6]|ul|ol|dl|dt|dd|table|thead|tbody|tfoot|caption|blockquote|pre|hr|figure|figcaption|form|fieldset|address|details|summary|body|html)(?=[\s/>])${attributes}`,
  "gi"
)
const hiddenElement = /<(script|style|noscript|template|head|svg|math|iframe|object|title)(?=[\s/>])/gi

/**
 * Cuts out elements whose content is not text (scripts, styles, the head...). A scan with `indexOf`
 * rather than one lazy regex, so that unclosed elements cost linear time, not quadratic.
 */
const dropHiddenElements = (source: string): string => {
  const lower = source.toLowerCase()
  let out = ""
  let from = 0
  hiddenElement.lastIndex = 0
  for (let open = hiddenElement.exec(source); open !== null; open = hiddenElement.exec(source)) {
    out += source.slice(from, open.index)
    const close = lower.indexOf(`</${open[1]!.toLowerCase()}`, hiddenElement.lastIndex)
    if (close === -1) return out
    const closeEnd = lower.indexOf(">", close)
    if (closeEnd === -1) return out
    from = closeEnd + 1
    hiddenElement.lastIndex = from
  }
  return out + source.slice(from)
}

/** The text of the first `<title>`, or null. */
const titleOf = (source: string): string | null => {
  const lower = source.toLowerCase()
  const open = lower.search(/<title(?=[\s/>])/)
  if (open === -1) return null
  const start = lower.indexOf(">", open)
  const close = lower.indexOf("</title", start)
  if (start === -1 || close === -1) return null
  return oneLine(decodeEntities(source.slice(start + 1, close).replace(anyTag, ""))) || null
}

/**
 * HTML as text: scripts, styles, comments and the head go; block elements break paragraphs, `<br>`
 * and table rows break lines, list items become `- ` lines, table cells are joined with ` | `; the
 * remaining tags are dropped and entities decoded (after the tags, so `&lt;b&gt;` stays text).
 * `title` in the metadata is the document's `<title>`.
 */
export const html = (source: string): Extraction => {
  const text = dropHiddenElements(
    source
      .replace(/<!--[\s\S]*?(?:-->|$)/g, "")
      .replace(/<!\[CDATA\[[\s\S]*?(?:\]\]>|$)/g, "")
      .replace(/<[!?][^<>]*>/g, "")
  )
    // source line breaks are only whitespace in HTML; the tags below decide the layout
    .replace(/\s+/g, " ")
    .replace(/<\/t[dh]\s*>\s*(?=<t[dh][\s>])/gi, " | ")
    .replace(/<br(?=[\s/>])[^<>]*>/gi, "\n")
    .replace(/<tr(?=[\s/>])[^<>]*>/gi, "\n")
    .replace(/<li(?=[\s/>])[^<>]*>/gi, "\n- ")
    .replace(blockTag, "\n\n")
    .replace(anyTag, "")
  const lines = decodeEntities(text)
    .split("\n")
    .map((line) => line.replace(/[ \t\u00a0]+/gu, " ").trim())
  return { text: normalize(lines.join("\n")), metadata: { title: titleOf(source) } }
}

// ---------------------------------------------------------------------------------------------------

const extractors: Readonly<
  Record<DocumentType, (source: string) => Either.Either<Extraction, MalformedDocument>>
> = {
  text: (source) => Either.right(plainText(source)),
  markdown: (source) => Either.right(markdown(source)),
  csv: (source) => Either.right(csv(source)),
  json,
  html: (source) => Either.right(html(source))
}

/** A file as the knowledge base receives it. */
export interface SourceFile {
  readonly filename: string
  /** The declared media type (from the upload), used when the extension says nothing. */
  readonly mime_type: string
  readonly bytes: Uint8Array
}

/**
 * The readable text of a file: its kind from the extension or media type, its bytes as strict UTF-8,
 * then the kind's extractor. Fails on unknown kinds, non-UTF-8 bytes, malformed JSON, and files that
 * have no text left.
 */
export const extract = (file: SourceFile): Either.Either<ExtractedDocument, ExtractionError> => {
  const type = detect(file.filename, file.mime_type)
  if (Option.isNone(type)) {
    return Either.left(new UnsupportedDocumentType({ filename: file.filename, mime_type: file.mime_type }))
  }
  const source = decodeUtf8(file.bytes)
  if (Option.isNone(source)) return Either.left(new UndecodableDocument({ filename: file.filename }))
  return Either.flatMap(extractors[type.value](source.value), (extraction) =>
    extraction.text === ""
      ? Either.left(new EmptyDocument({ filename: file.filename }))
      : Either.right({ ...extraction, type: type.value })
  )
}
