/** The readable text of HTML: visible text only, block elements as line breaks. */
import type { Extraction } from "./Extraction.js"
import { normalize, oneLine } from "./PlainText.js"

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
