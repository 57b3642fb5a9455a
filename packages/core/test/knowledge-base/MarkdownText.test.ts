import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { markdown, plainText } from "../../src/knowledge-base/DocumentText.js"
import * as Markdown from "../../src/knowledge-base/MarkdownText.js"

describe("DocumentText.markdown", () => {
  const source = [
    "# Opening hours #",
    "",
    'We are open **Monday** to _Friday_, see [the page](https://example.com "Hours") or ![the logo](logo.png).',
    "> Closed on \\*public\\* holidays.",
    "",
    "* first",
    "+ [x] second",
    "1. numbered",
    "",
    "| Day | Hours |",
    "|:----|------:|",
    "| Mon | 8-17 |",
    "",
    "```js",
    "const a = **b**",
    "```",
    "Use `snake_case` and snake_case_too, 2*3*4, a * b.",
    "",
    "[ref]: https://example.com",
    "",
    "Other heading",
    "-------------",
    "***",
    "<span>inline html</span> <https://example.org>"
  ].join("\n")

  it("keeps the text and drops the markup", () => {
    expect(markdown(source).text).toBe(
      [
        "Opening hours",
        "",
        "We are open Monday to Friday, see the page or the logo.",
        "Closed on *public* holidays.",
        "",
        "- first",
        "- second",
        "1. numbered",
        "",
        "Day | Hours",
        "Mon | 8-17",
        "",
        "const a = **b**",
        // CommonMark: `_` inside a word is text, `*` is emphasis (2, an emphasised 3, 4)
        "Use snake_case and snake_case_too, 234, a * b.",
        "",
        // a setext heading (its underline is not a rule), a paragraph of its own
        "Other heading",
        "",
        "inline html https://example.org"
      ].join("\n")
    )
  })

  it("reports the headings", () => {
    expect(markdown(source).metadata).toEqual({ heading_count: 2, title: "Opening hours" })
    expect(markdown("no headings").metadata).toEqual({ heading_count: 0, title: null })
  })

  it("keeps fenced code verbatim until a matching fence", () => {
    expect(markdown("~~~\n# not a heading\n```\n**kept**\n~~~\nafter **bold**").text).toBe(
      "# not a heading\n```\n**kept**\nafter bold"
    )
  })

  it("reads what CommonMark and GitHub add: nested lists, strikethrough, HTML blocks, breaks, references", () => {
    expect(
      markdown(
        [
          "- a",
          "  - b",
          "    1. c",
          "- ~~gone~~ kept",
          "",
          "<div>",
          "<p>block <b>html</b> &amp; text</p>",
          "</div>",
          "",
          "hard  ",
          "break\\",
          "here and [a reference][r], ![an image][i] &copy; &#322;",
          "",
          "[r]: https://example.com",
          '[i]: logo.png "Logo"',
          "",
          "    indented code",
          "",
          "Setext",
          "======"
        ].join("\n")
      )
    ).toEqual({
      text: [
        "- a",
        "  - b",
        "    1. c",
        "- gone kept",
        "",
        "block html & text",
        "",
        "hard",
        "break",
        "here and a reference, an image © ł",
        "",
        "indented code",
        "",
        "Setext"
      ].join("\n"),
      metadata: { heading_count: 1, title: "Setext" }
    })
  })

  it("reads a document nested deeper, or with longer backtick runs, than any real one as plain text", () => {
    const deep = `${"- ".repeat(Markdown.maxNesting + 1)}x\n\n# Title`
    expect(markdown(deep)).toEqual({ text: deep, metadata: { heading_count: 0, title: null } })
    const quotes = `${">".repeat(100_000)} x`
    expect(markdown(quotes).text).toBe(quotes)
    const shallow = `${"- ".repeat(Markdown.maxNesting)}x\n\n# Title`
    expect(markdown(shallow).metadata).toEqual({ heading_count: 1, title: "Title" })
    // unclosed code spans of every length scan the paragraph once a length
    const ticks = `a ${"`".repeat(Markdown.maxBacktickRun + 1)}code\n\n# b`
    expect(markdown(ticks).text).toBe(ticks)
    expect(markdown(`a ${"`".repeat(Markdown.maxBacktickRun)}code\n\n# b`).metadata).toEqual({
      heading_count: 1,
      title: "b"
    })
  })

  it("reads emphasis nested deeper than the limit, or past the scanning allowance, as text", () => {
    // emphasis nested as deep as allowed reads without recursion in our code
    const nested = `${"*".repeat(2 * Markdown.maxNesting)}deep${"*".repeat(2 * Markdown.maxNesting)}`
    expect(markdown(nested).text).toBe("deep")
    // one emphasis and maxNesting - 1 strong levels read; the two markers left are text
    const deeper = `${"*".repeat(2 * Markdown.maxNesting + 1)}deep${"*".repeat(2 * Markdown.maxNesting + 1)}`
    expect(markdown(deeper).text).toBe("**deep**")
    // each unmatched opener scans to the one closer at the end: the allowance runs out
    const openers = (count: number) => `${"_a ".repeat(count)}b_\n\nlater *emphasis*`
    const spent = Math.ceil(2 * Math.sqrt(Markdown.emphasisScanFloor / 3))
    expect(markdown(openers(spent)).text.endsWith("later *emphasis*")).toBe(true)
    // (the closest opener matches, as CommonMark has it)
    expect(markdown(openers(10)).text).toBe(`${"_a ".repeat(9)}a b\n\nlater emphasis`)
    // a long document of matched emphasis stays within it
    const long = "Some **bold** and _quiet_ words, ~~gone~~ too.\n".repeat(20_000)
    expect(markdown(long).text).toBe("Some bold and quiet words, gone too.\n".repeat(20_000).trim())
  })

  it("reads URLs and e-mail addresses as the text they are", () => {
    expect(
      markdown("see https://example.com/a_b_c?x=*y* or www.example.org, mail ann_b@example.com").text
    ).toBe("see https://example.com/a_b_c?x=y or www.example.org, mail ann_b@example.com")
  })

  it.prop(
    "text without markup characters reads as plain text",
    // indentation is markup in CommonMark (code blocks, continuation lines): no line starts with a space
    [FastCheck.stringMatching(/^[A-Za-z0-9 ,\n]{0,200}$/).filter((text) => !/(^|\n) /.test(text))],
    ([text]) => {
      // text without markup characters is plain text
      expect(markdown(text).text).toBe(plainText(text).text)
    }
  )
})
