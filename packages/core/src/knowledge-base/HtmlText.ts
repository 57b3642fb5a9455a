/** The readable text of HTML: visible text only, block elements as line breaks. */
import { decodeHTML } from "entities/decode"
import { Parser } from "htmlparser2"
import type { Extraction } from "./Extraction.js"
import { tidy, oneLine } from "./PlainText.js"

/**
 * Decodes character references as HTML text does (the `entities` package: every named reference of
 * the HTML standard, numeric ones with invalid code points as U+FFFD); unknown names stay as written.
 */
export const decodeEntities = (text: string): string => decodeHTML(text)

/** Elements whose content is not text. */
const hidden = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "head",
  "svg",
  "math",
  "iframe",
  "object",
  "title"
])

/** Elements that open and close a paragraph. */
const blocks = new Set([
  ..."p div section article header footer nav aside main h1 h2 h3 h4 h5 h6 ul ol dl dt dd".split(" "),
  ..."table thead tbody tfoot caption blockquote pre hr figure figcaption form fieldset".split(" "),
  ..."address details summary body html".split(" ")
])

/**
 * HTML as text, read by htmlparser2 (entities decoded in text only, so `&lt;b&gt;` stays text):
 * scripts, styles, comments and the head go; block elements break paragraphs, `<br>` and table rows
 * break lines, list items become `- ` lines, table cells in a row are joined with ` | `; other tags
 * leave their text. `title` in the metadata is the document's first `<title>`. Malformed HTML is read
 * as browsers read it (unclosed elements end with the document, a stray end tag is ignored), so an
 * unclosed `<script>` hides the rest rather than leaking it.
 */
export const html = (source: string): Extraction => {
  let text = ""
  let hiddenDepth = 0
  let cellInRow = false
  let title: string | null = null
  let inTitle = false
  const parser = new Parser({
    onopentag(name) {
      if (name === "title" && title === null) inTitle = true
      if (hidden.has(name)) hiddenDepth++
      if (hiddenDepth > 0) return
      if (name === "br") text += "\n"
      else if (name === "tr") {
        text += "\n"
        cellInRow = false
      } else if (name === "td" || name === "th") {
        if (cellInRow) text += " | "
        cellInRow = true
      } else if (name === "li") text += "\n- "
      else if (blocks.has(name)) text += "\n\n"
    },
    onclosetag(name) {
      if (name === "title" && inTitle) {
        inTitle = false
        title ??= ""
      }
      if (hidden.has(name) && hiddenDepth > 0) hiddenDepth--
      else if (hiddenDepth === 0 && blocks.has(name)) text += "\n\n"
    },
    ontext(data) {
      // source line breaks are only whitespace in HTML; the tags above decide the layout
      if (inTitle) title = (title ?? "") + data
      if (hiddenDepth === 0) text += data.replace(/\s+/g, " ")
    }
  })
  parser.end(source)
  const lines = text.split("\n").map((line) => line.replace(/[ \t\u00a0]+/gu, " ").trim())
  return {
    text: tidy(lines.join("\n")),
    metadata: { title: title === null ? null : oneLine(title) || null }
  }
}
