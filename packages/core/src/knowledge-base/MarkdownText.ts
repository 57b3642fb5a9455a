/** The readable text of Markdown: markup dropped, structure kept as plain lines. */
import type { Nodes, RootContent } from "mdast"
import { fromMarkdown } from "mdast-util-from-markdown"
import { gfmStrikethroughFromMarkdown } from "mdast-util-gfm-strikethrough"
import { gfmTableFromMarkdown } from "mdast-util-gfm-table"
import { gfmTaskListItemFromMarkdown } from "mdast-util-gfm-task-list-item"
import { gfmStrikethrough } from "micromark-extension-gfm-strikethrough"
import { gfmTable } from "micromark-extension-gfm-table"
import { gfmTaskListItem } from "micromark-extension-gfm-task-list-item"
import type { Extraction } from "./Extraction.js"
import { html } from "./HtmlText.js"
import { normalize } from "./PlainText.js"

/** CommonMark with the GitHub tables, task lists and strikethrough people write in knowledge bases. */
const parse = (source: string) =>
  fromMarkdown(source, {
    extensions: [gfmTable(), gfmTaskListItem(), gfmStrikethrough()],
    mdastExtensions: [gfmTableFromMarkdown(), gfmTaskListItemFromMarkdown(), gfmStrikethroughFromMarkdown()]
  })

/**
 * The text of inline content: images as their alt text, links as their text, inline HTML dropped.
 * A loop over a stack, not recursion: emphasis can nest as deep as the input is long.
 */
const inline = (root: Nodes): string => {
  let text = ""
  const pending: Array<Nodes> = [root]
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    switch (node.type) {
      case "text":
      case "inlineCode":
        text += node.value
        break
      case "break":
        text += "\n"
        break
      case "image":
      case "imageReference":
        text += node.alt ?? ""
        break
      case "html":
        break
      default:
        if ("children" in node)
          for (let i = node.children.length - 1; i >= 0; i--) pending.push(node.children[i]!)
    }
  }
  return text
}

/**
 * How deep containers (quotes, list items) may nest, and how long a run of one emphasis marker may be.
 * CommonMark parsing costs grow with the square of both (micromark), and no real document comes near:
 * one that does is read as plain text.
 */
export const maxNesting = 32
export const maxMarkerRun = 64

/** The container markers that open a line; with its indentation (two columns a level), its depth. */
const containerPrefix = /^(?:[ \t]*(?:>|(?:[-*+]|[0-9]{1,9}[.)])(?=[ \t]|$)))+/gm
/** A line that is only a rule (`***`, `___`), which may be as long as its writer likes. */
const ruleLine = /^[ \t]*([*_~])(?:[ \t]*\1)*[ \t]*$/gm
const markerRun = new RegExp(String.raw`([*_~])\1{${maxMarkerRun}}`)

const tooCostly = (source: string): boolean => {
  for (const [prefix] of source.matchAll(containerPrefix)) {
    const markers = prefix.match(/>|[-*+]|[0-9]{1,9}[.)]/g)?.length ?? 0
    const indentation = /^[ \t]*/.exec(prefix)![0].replace(/\t/g, "    ").length
    if (markers + Math.floor(indentation / 2) > maxNesting) return true
  }
  return markerRun.test(source.replace(ruleLine, ""))
}

/**
 * Markdown as readable text, read by mdast-util-from-markdown (CommonMark and the GFM extensions
 * above): headings, emphasis, links (their text), images (their alt text), code (its content), quotes
 * and tables lose their markup; rules and link definitions disappear; list items become `- ` (or
 * their number), table cells are joined with ` | `, HTML blocks are read as HTML. Blocks on adjacent
 * source lines stay on adjacent lines; a blank line between them, or a heading, makes a paragraph break.
 */
export const markdown = (source: string): Extraction => {
  const headings: Array<string> = []

  const block = (node: RootContent): string => {
    switch (node.type) {
      case "heading": {
        const text = inline(node).trim()
        if (text !== "") headings.push(text)
        return text
      }
      case "paragraph":
        return inline(node)
      case "code":
        return node.value
      case "html":
        return html(node.value).text
      case "blockquote":
        return blocks(node.children)
      case "list":
        return blocks(node.children, (item, i) => {
          const marker = node.ordered ? `${(node.start ?? 1) + i}. ` : "- "
          // continuation lines line up under the item's text
          return marker + blocks(item.children).replace(/\n(?=.)/g, `\n${" ".repeat(marker.length)}`)
        })
      case "table":
        return node.children
          .map((row) => row.children.map((cell) => inline(cell).trim()).join(" | "))
          .join("\n")
      default:
        // rules, link and footnote definitions
        return ""
    }
  }

  const blocks = <A extends RootContent>(
    nodes: ReadonlyArray<A>,
    render: (node: A, index: number) => string = block
  ): string => {
    let text = ""
    let previous: RootContent | undefined
    for (const [index, node] of nodes.entries()) {
      const rendered = render(node, index)
      if (rendered === "") continue
      if (previous !== undefined) {
        const adjacent = (node.position?.start.line ?? 0) === (previous.position?.end.line ?? 0) + 1
        text += adjacent && node.type !== "heading" && previous.type !== "heading" ? "\n" : "\n\n"
      }
      text += rendered
      previous = node
    }
    return text
  }

  if (tooCostly(source)) return { text: normalize(source), metadata: { heading_count: 0, title: null } }
  const text = normalize(blocks(parse(source).children))
  return { text, metadata: { heading_count: headings.length, title: headings[0] ?? null } }
}
