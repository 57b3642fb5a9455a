/** The readable text of Markdown: markup dropped, structure kept as plain lines. */
import { Lexer, type Token, Tokenizer, type Tokens } from "marked"
import type { Extraction } from "./Extraction.js"
import { decodeEntities, html } from "./HtmlText.js"
import { tidy } from "./PlainText.js"

/**
 * How deep emphasis and strikethrough (deeper markers read as text), and quotes and list items (a
 * deeper document reads as plain text), may nest. marked reads each level by recursion, re-reading
 * what it holds; no real document comes near.
 */
export const maxNesting = 32

/**
 * marked's GFM text rule without its look-ahead for e-mail addresses and URLs: that look-ahead scans
 * the whole run of address characters after every stop (`a*a*a…`, `a_a_a…` cost the square of the
 * run). URLs and addresses read as the text they are, so nothing is lost.
 */
const textRule = /^(`+|~+|[^`~])(?:(?=[`~])|(?= {2,}\n)|[\s\S]*?(?:(?=[\\<!\[`*~_]|\b_|$)|[^ ](?= {2,}\n)))/

/**
 * How many characters marked's searches for emphasis and strikethrough closers may scan, per character
 * of the document (at least `emphasisScanFloor`). An opening `*`, `_` or `~` is matched by scanning
 * ahead for its closer, up to the last one that could close it: unmatched openers in front of a far
 * closer (`_a _a _a … b_`) cost the square of the paragraph. Once the allowance is spent, further
 * delimiters read as text. Ordinary documents scan less than one character per character.
 */
export const emphasisScanPerCharacter = 4
export const emphasisScanFloor = 1 << 20

/**
 * marked's tokenizer with emphasis nested deeper than `maxNesting`, or beyond the scanning allowance,
 * read as text, and no autolinked URLs (they read as the text they are).
 */
class TextTokenizer extends Tokenizer {
  private depth = 0

  constructor(private allowance: number) {
    super()
  }

  /** Counts what the closer searches of emphasis and strikethrough scan (call once the lexer has set the rules). */
  countScans(): void {
    const inline = this.rules.inline
    this.rules = {
      ...this.rules,
      inline: {
        ...inline,
        emStrongRDelimAst: this.counted(inline.emStrongRDelimAst),
        emStrongRDelimUnd: this.counted(inline.emStrongRDelimUnd),
        delRDelim: this.counted(inline.delRDelim)
      }
    }
  }

  override emStrong(src: string, maskedSrc: string, prevChar?: string) {
    return this.nested(src, "*_", () => super.emStrong(src, maskedSrc, prevChar))
  }

  override del(src: string, maskedSrc: string, prevChar?: string) {
    return this.nested(src, "~", () => super.del(src, maskedSrc, prevChar))
  }

  override url(): undefined {
    return undefined
  }

  override inlineText(src: string): Tokens.Text | undefined {
    const match = textRule.exec(src)
    return match === null ? undefined : { type: "text", raw: match[0], text: match[0], escaped: false }
  }

  private nested<A>(src: string, delimiters: string, read: () => A | undefined): A | undefined {
    if (src[0] === undefined || !delimiters.includes(src[0])) return read()
    if (this.depth >= maxNesting || this.allowance <= 0) return undefined
    this.depth++
    try {
      return read()
    } finally {
      this.depth--
    }
  }

  /** The same search, charging the characters it scans to the allowance. */
  private counted(rule: RegExp): RegExp {
    const tokenizer = this
    return new (class extends RegExp {
      override exec(input: string): RegExpExecArray | null {
        const from = this.lastIndex
        const match = super.exec(input)
        tokenizer.allowance -= (match === null ? input.length : this.lastIndex) - from
        return match
      }
    })(rule.source, rule.flags)
  }
}

/**
 * CommonMark as marked reads it, with the GitHub tables, task lists and strikethrough people write in
 * knowledge bases. Only the lexer: its tokens are laid out below, never rendered as HTML.
 */
const parse = (source: string): Array<Token> => {
  const allowance = Math.max(emphasisScanFloor, emphasisScanPerCharacter * source.length)
  const tokenizer = new TextTokenizer(allowance)
  const lexer = new Lexer({ gfm: true, breaks: false, pedantic: false, tokenizer })
  tokenizer.countScans()
  return lexer.lex(source)
}

/**
 * The text of inline tokens: images as their alt text, links as their text, inline HTML dropped,
 * character references decoded (not in code spans, not escaped characters).
 * A loop over a stack, not recursion.
 */
const inline = (tokens: ReadonlyArray<Token>): string => {
  let text = ""
  const pending: Array<Token> = []
  const push = (children: ReadonlyArray<Token>) => {
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!)
  }
  push(tokens)
  for (let token = pending.pop(); token !== undefined; token = pending.pop()) {
    switch (token.type) {
      case "text":
        if ("tokens" in token && token.tokens !== undefined && token.tokens.length > 0) push(token.tokens)
        else text += decodeEntities(token.text as string)
        break
      case "escape":
      case "codespan":
        text += (token as Tokens.Escape | Tokens.Codespan).text
        break
      case "br":
        text += "\n"
        break
      case "html":
      case "checkbox":
        break
      default:
        if ("tokens" in token && token.tokens !== undefined) push(token.tokens)
    }
  }
  return text
}

/**
 * How long a run of backticks may be. A code span opened by a run that nothing closes is scanned to
 * the end of its paragraph, once per run length: runs of every length up to n cost n times the
 * paragraph. No real document comes near: one that does is read as plain text, as is one nesting
 * quotes and list items deeper than `maxNesting` (marked recurses once a level, re-reading the rest).
 */
export const maxBacktickRun = 64

/** The container markers that open a line; with its indentation (two columns a level), its depth. */
const containerPrefix = /^(?:[ \t]*(?:>|(?:[-*+]|[0-9]{1,9}[.)])(?=[ \t]|$)))+/gm
const backtickRun = new RegExp(`\`{${maxBacktickRun + 1}}`)

const tooCostly = (source: string): boolean => {
  for (const [prefix] of source.matchAll(containerPrefix)) {
    const markers = prefix.match(/>|[-*+]|[0-9]{1,9}[.)]/g)?.length ?? 0
    const indentation = /^[ \t]*/.exec(prefix)![0].replace(/\t/g, "    ").length
    if (markers + Math.floor(indentation / 2) > maxNesting) return true
  }
  return backtickRun.test(source)
}

const lineBreaks = (text: string): number => {
  let count = 0
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) count++
  return count
}

/**
 * Markdown as readable text, read by marked's lexer (CommonMark and the GFM extensions above):
 * headings, emphasis, links (their text), images (their alt text), code (its content), quotes and
 * tables lose their markup; rules and link definitions disappear; list items become `- ` (or their
 * number), table cells are joined with ` | `, HTML blocks are read as HTML. Blocks on adjacent
 * source lines stay on adjacent lines; a blank line between them, or a heading, makes a paragraph break.
 */
export const markdown = (source: string): Extraction => {
  const headings: Array<string> = []

  const block = (token: Token): string => {
    switch (token.type) {
      case "heading": {
        const text = inline(token.tokens ?? []).trim()
        if (text !== "") headings.push(text)
        return text
      }
      case "paragraph":
      case "text":
        return inline(token.tokens ?? [token])
      case "code":
        return (token as Tokens.Code).text.replace(/\n+$/, "")
      case "html":
        return html(token.text as string).text
      case "blockquote":
        return blocks(token.tokens ?? [])
      case "list": {
        const list = token as Tokens.List
        const start = list.start === "" ? 1 : list.start
        return blocks(list.items, (item, i) => {
          const marker = list.ordered ? `${start + i}. ` : "- "
          // continuation lines line up under the item's text
          return marker + blocks(item.tokens).replace(/\n(?=.)/g, `\n${" ".repeat(marker.length)}`)
        })
      }
      case "table": {
        const table = token as Tokens.Table
        return [table.header, ...table.rows]
          .map((row) => row.map((cell) => inline(cell.tokens).trim()).join(" | "))
          .join("\n")
      }
      default:
        // rules, link definitions, blank lines
        return ""
    }
  }

  /** Sibling tokens' raw texts follow each other, so counting their line breaks gives their lines. */
  const blocks = <A extends Token>(
    tokens: ReadonlyArray<A>,
    render: (token: A, index: number) => string = block
  ): string => {
    let text = ""
    let line = 0
    let previous: { readonly type: string; readonly endLine: number } | undefined
    for (const [index, token] of tokens.entries()) {
      const startLine = line
      line += lineBreaks(token.raw)
      const rendered = render(token, index)
      if (rendered === "") continue
      if (previous !== undefined) {
        const adjacent = startLine === previous.endLine + 1
        text += adjacent && token.type !== "heading" && previous.type !== "heading" ? "\n" : "\n\n"
      }
      text += rendered
      previous = { type: token.type, endLine: startLine + lineBreaks(token.raw.replace(/\n+$/, "")) }
    }
    return text
  }

  if (tooCostly(source)) return { text: tidy(source), metadata: { heading_count: 0, title: null } }
  const text = tidy(blocks(parse(source)))
  return { text, metadata: { heading_count: headings.length, title: headings[0] ?? null } }
}
