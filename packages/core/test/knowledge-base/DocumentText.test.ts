import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck, Option } from "effect"
import {
  csv,
  decodeEntities,
  detect,
  extract,
  html,
  json,
  tidy,
  parseCsv,
  plainText,
  sniffDelimiter
} from "../../src/knowledge-base/DocumentText.js"

const bytes = (text: string) => new TextEncoder().encode(text)
const rightText = (result: Either.Either<{ readonly text: string }, unknown>) =>
  Either.getOrThrow(Either.map(result, (r) => r.text))

/** A CSV field written the RFC 4180 way: quoted when it holds a delimiter, quote or line break. */
const csvField = (value: string) => (/[",;\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value)
const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

describe("DocumentText.detect", () => {
  it("takes the kind from a known extension, whatever the declared media type", () => {
    expect(detect("notes.md", "application/octet-stream")).toEqual(Option.some("markdown"))
    expect(detect("Contacts.CSV", "text/plain")).toEqual(Option.some("csv"))
    expect(detect("C:\\fakepath\\page.htm", "")).toEqual(Option.some("html"))
    expect(detect("data.json", "text/html")).toEqual(Option.some("json"))
    expect(detect("readme.txt", "")).toEqual(Option.some("text"))
  })

  it("falls back to the declared media type, parameters and case ignored", () => {
    expect(detect("notes", "Text/Markdown; charset=UTF-8")).toEqual(Option.some("markdown"))
    expect(detect("export.dat", "application/json")).toEqual(Option.some("json"))
    expect(detect(".hidden", "text/plain")).toEqual(Option.some("text"))
  })

  it("knows nothing else", () => {
    expect(detect("scan.pdf", "application/pdf")).toEqual(Option.none())
    expect(detect("photo.png", "image/png")).toEqual(Option.none())
    expect(detect("noextension", "")).toEqual(Option.none())
  })

  it.prop(
    "a known extension decides, in any case, whatever the declared type",
    [
      FastCheck.constantFrom(
        ["md", "markdown"] as const,
        ["csv", "csv"] as const,
        ["json", "json"] as const,
        ["htm", "html"] as const,
        ["txt", "text"] as const
      ),
      FastCheck.stringMatching(/^[a-z0-9 _-]{1,12}$/),
      FastCheck.string()
    ],
    ([[extension, type], stem, mimeType]) => {
      const mixedCase = extension.toUpperCase().slice(0, 1) + extension.slice(1)
      expect(detect(`${stem}.${mixedCase}`, mimeType)).toEqual(Option.some(type))
    }
  )
})

describe("DocumentText.tidy and plainText", () => {
  it("unifies line ends, drops trailing blanks, keeps at most one empty line, trims", () => {
    expect(tidy("  \r\nFirst line   \r\nsecond\t\r\r\r\n\n\nthird  \n\n")).toBe("First line\nsecond\n\nthird")
    expect(plainText("a\nb\n\nc").metadata).toEqual({ line_count: 4 })
  })

  it.prop(
    "is idempotent and leaves no CR, triple line break, trailing blank or outer whitespace",
    [FastCheck.string({ unit: "grapheme" })],
    ([text]) => {
      const once = tidy(text)
      expect(tidy(once)).toBe(once)
      expect(once).not.toMatch(/\r|\n{3}|[ \t]\n/)
      expect(once).toBe(once.trim())
    }
  )
})

describe("DocumentText.csv", () => {
  it("turns each row into `column: value` lines, rows as paragraphs, empty values left out", () => {
    const result = csv(
      'name,phone,"notes, misc"\r\nAda,+48 500 000 001,"first line\nsecond ""quoted"""\n\nBob,,x\n'
    )
    expect(result.text).toBe(
      'name: Ada\nphone: +48 500 000 001\nnotes, misc: first line second "quoted"\n\nname: Bob\nnotes, misc: x'
    )
    expect(result.metadata).toEqual({
      row_count: 2,
      column_count: 3,
      columns: ["name", "phone", "notes, misc"],
      delimiter: ","
    })
  })

  it("sniffs semicolons and tabs, and names unnamed or extra columns", () => {
    expect(sniffDelimiter("a;b;c\n1,2;3")).toBe(";")
    expect(sniffDelimiter("a\tb\n")).toBe("\t")
    expect(csv("city;;\nWarsaw;PL;extra;more").text).toBe(
      "city: Warsaw\ncolumn 2: PL\ncolumn 3: extra\ncolumn 4: more"
    )
  })

  it("has no text with only a header", () => {
    expect(csv("a,b,c\n").text).toBe("")
  })

  const field = FastCheck.string({ unit: "grapheme-ascii", maxLength: 8 })
  it.prop(
    "parses what RFC 4180 quoting wrote, with either delimiter and line end",
    [
      FastCheck.array(FastCheck.array(field, { minLength: 2, maxLength: 2 }), { minLength: 1, maxLength: 6 }),
      FastCheck.constantFrom(",", ";"),
      FastCheck.constantFrom("\n", "\r\n")
    ],
    ([rows, delimiter, lineEnd]) => {
      // a row of two empty fields would read back as `[""]`... so every row gets a leading marker
      const written = rows.map((row) => ["r", ...row])
      const source = written.map((row) => row.map(csvField).join(delimiter)).join(lineEnd)
      expect(parseCsv(source, delimiter)).toEqual(written)
    }
  )
})

describe("DocumentText.json", () => {
  it("flattens to `path: value` lines, one paragraph per top-level entry", () => {
    const result = json(
      '{"company": {"name": "Acme", "tags": ["a", "b"], "odd key": null, "empty": {}, "none": []}, "size": 12}'
    )
    expect(rightText(result)).toBe(
      [
        "company.name: Acme",
        "company.tags[0]: a",
        "company.tags[1]: b",
        'company["odd key"]: null',
        "company.empty: {}",
        "company.none: []",
        "",
        "size: 12"
      ].join("\n")
    )
    expect(Either.map(result, (r) => r.metadata)).toEqual(Either.right({ value_count: 7 }))
  })

  it("keeps one line per entry when every entry is one line, and reads arrays and scalars", () => {
    expect(rightText(json('{"a": 1, "b": true}'))).toBe("a: 1\nb: true")
    expect(rightText(json('[{"q": "Open?", "a": "Yes\\nalways"}, {"q": "Where?"}]'))).toBe(
      "[0].q: Open?\n[0].a: Yes always\n\n[1].q: Where?"
    )
    expect(rightText(json('"just text"'))).toBe("just text")
    expect(rightText(json("[]"))).toBe("[]")
  })

  it("fails on malformed JSON with a typed error", () => {
    const result = json("{bad")
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isLeft(result)) {
      expect(result.left._tag).toBe("MalformedDocument")
      expect(result.left.message).toMatch(/^malformed_json: the file is not valid JSON: /)
    }
  })

  it("reads very deep nesting without overflowing the stack", () => {
    const depth = 20_000
    expect(rightText(json("[".repeat(depth) + "1" + "]".repeat(depth)))).toBe("[0]".repeat(depth) + ": 1")
  })

  it.prop(
    "reads flat records back as one `key: value` line each, in order",
    [
      FastCheck.dictionary(
        FastCheck.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/),
        FastCheck.oneof(FastCheck.integer(), FastCheck.boolean(), FastCheck.constant(null))
      )
    ],
    ([record]) => {
      // flat records read back as one `key: value` line each, in order
      const expected = Object.entries(record).map(([k, v]) => `${k}: ${String(v)}`)
      expect(rightText(json(JSON.stringify(record)))).toBe(expected.length === 0 ? "{}" : expected.join("\n"))
    }
  )

  it.prop("reads every JSON value", [FastCheck.jsonValue()], ([value]) => {
    expect(Either.isRight(json(JSON.stringify(value)))).toBe(true)
  })
})

describe("DocumentText.html", () => {
  const page = `<!DOCTYPE html>
<html><head><title>Clinic &amp; Co</title><style>p { color: red }</style>
<script>var x = "<p>not text</p>"</script></head>
<body>
  <h1>Opening
     hours</h1>
  <p>We are open <b>Monday</b>&nbsp;to&nbsp;Friday &ndash; call &lt;us&gt; &#x1F600; &#169; &bogus;</p>
  <!-- a comment <p>hidden</p> -->
  <ul><li>Parking</li><li>Wi-Fi</li></ul>
  <table><tr><th>Day</th><th>Hours</th></tr><tr><td>Mon</td><td>8-17</td></tr></table>
  line one<br>line two<br/>
  <script type="module">document.write("gone")</script><noscript>enable JS</noscript>
  <a href="/x" title="a > b">link</a>
</body></html>`

  it("strips tags, scripts, styles and comments, lays out blocks, decodes entities", () => {
    expect(html(page).text).toBe(
      [
        "Opening hours",
        "",
        "We are open Monday to Friday – call <us> 😀 © &bogus;",
        "",
        "- Parking",
        "- Wi-Fi",
        "",
        "Day | Hours",
        "Mon | 8-17",
        "",
        "line one",
        "line two",
        "link"
      ].join("\n")
    )
    expect(html(page).metadata).toEqual({ title: "Clinic & Co" })
  })

  it("cuts an unclosed script to the end instead of leaking it", () => {
    expect(html("<p>kept</p><script>never closed <p>x</p>").text).toBe("kept")
  })

  it("decodes every named reference of the HTML standard, as Polish pages write them", () => {
    const page =
      "<title>Zam&oacute;wienia &ndash; &#321;&oacute;d&#378;</title>" +
      "<p>Godziny otwarcia: poniedzia&#322;ek&ndash;pi&#x105;tek, ul. &Lstrok;&oacute;dzka 5, " +
      "&bdquo;Kr&oacute;lewska&rdquo; &sect;&nbsp;3</p><p>&Zdot;&oacute;&lstrok;&cacute; &zacute;d&zacute;b&lstrok;a &ecaron;&rarr;&notin;</p>"
    expect(html(page).text).toBe(
      "Godziny otwarcia: poniedziałek–piątek, ul. Łódzka 5, „Królewska” § 3\n\nŻółć źdźbła ě→∉"
    )
    expect(html(page).metadata).toEqual({ title: "Zamówienia – Łódź" })
    expect(decodeEntities("&oacute;&Oacute;&eogon;&Sacute;&copy &amp &lt;")).toBe("óÓęŚ© & <")
  })

  it("reads malformed HTML as a browser does, without leaking markup", () => {
    // unclosed paragraphs and list items, a stray end tag, an unquoted attribute, `<` in text
    expect(html("<p>one<p>two</div><ul><li>a<li>b</ul><p class=x>2 < 3 > 1 & so on").text).toBe(
      "one\n\ntwo\n\n- a\n- b\n\n2 < 3 > 1 & so on"
    )
    // an attribute holding `>`, and tags left open to the end
    expect(html('<div title="a > b"><b>bold <i>both</div>after').text).toBe("bold both\n\nafter")
    // an unclosed comment hides the rest; a comment-like text in an attribute does not
    expect(html('<p data-x="<!--">kept</p><!-- never closed <p>x</p>').text).toBe("kept")
    // a head left open ends at the body
    expect(html("<html><head><title>T</title><meta charset=utf-8><body><p>text</p>").text).toBe("text")
    // table cells without end tags still join per row
    expect(html("<table><tr><td>a<td>b<tr><td>c<td>d</table>").text).toBe("a | b\nc | d")
  })

  it("decodes numeric references, replacing invalid code points", () => {
    expect(decodeEntities("&#65;&#x42;&#X43;&#0;&#xD800;&#x110000;&amp;amp;")).toBe(
      "ABC\ufffd\ufffd\ufffd&amp;"
    )
  })

  it.prop(
    "escaped text in a paragraph reads back as itself, whitespace collapsed",
    [FastCheck.string({ unit: "grapheme" })],
    ([text]) => {
      // escaped text in a paragraph reads back as itself, whitespace collapsed
      expect(html(`<p>${escapeHtml(text)}</p>`).text).toBe(text.replace(/\s+/g, " ").trim())
    }
  )
})

describe("DocumentText.extract", () => {
  it("reads each supported kind and names it", () => {
    const read = (filename: string, content: string, mimeType = "") =>
      extract({ filename, mime_type: mimeType, bytes: bytes(content) })
    expect(read("a.txt", "\ufeffhello")).toEqual(
      Either.right({ type: "text", text: "hello", metadata: { line_count: 1 } })
    )
    expect(Either.map(read("a.md", "# Hi"), (r) => [r.type, r.text])).toEqual(
      Either.right(["markdown", "Hi"])
    )
    expect(Either.map(read("a.csv", "k\nv"), (r) => [r.type, r.text])).toEqual(Either.right(["csv", "k: v"]))
    expect(Either.map(read("a", '{"k":"v"}', "application/json"), (r) => [r.type, r.text])).toEqual(
      Either.right(["json", "k: v"])
    )
    expect(Either.map(read("a.html", "<p>v</p>"), (r) => [r.type, r.text])).toEqual(
      Either.right(["html", "v"])
    )
  })

  it("fails with a typed error for unsupported kinds, non-UTF-8 bytes, binary data and empty text", () => {
    const failure = (filename: string, content: Uint8Array, mimeType = "") =>
      Either.flip(extract({ filename, mime_type: mimeType, bytes: content })).pipe(Either.getOrThrow)
    const pdf = failure("scan.pdf", bytes("%PDF-1.7"), "application/pdf")
    expect(pdf._tag).toBe("UnsupportedDocumentType")
    expect(pdf.message).toBe(
      "unsupported_type: scan.pdf (application/pdf) is not plain text, Markdown, CSV, JSON or HTML"
    )
    const latin2 = failure("notes.txt", new Uint8Array([0x5a, 0x61, 0xbf, 0xf3, 0xb3, 0xe6]))
    expect(latin2._tag).toBe("UndecodableDocument")
    expect(latin2.message).toBe("not_utf8: notes.txt is not UTF-8 text")
    expect(failure("x.txt", new Uint8Array([0x61, 0x00, 0x62]))._tag).toBe("UndecodableDocument")
    const empty = failure("empty.html", bytes("<script>x</script>  "))
    expect(empty._tag).toBe("EmptyDocument")
    expect(empty.message).toBe("no_text: empty.html has no text to index")
    expect(failure("bad.json", bytes("{"))._tag).toBe("MalformedDocument")
  })

  it.prop(
    "any byte sequence holding 0xFF is not UTF-8",
    [FastCheck.string({ unit: "grapheme" }), FastCheck.string({ unit: "grapheme" })],
    ([before, after]) => {
      // 0xFF never occurs in UTF-8
      const content = new Uint8Array([...bytes(before), 0xff, ...bytes(after)])
      const result = extract({ filename: "x.txt", mime_type: "text/plain", bytes: content })
      expect(Either.isLeft(result) && result.left._tag).toBe("UndecodableDocument")
    }
  )

  it.prop(
    "a .txt file of any text reads as that text, normalised",
    [
      FastCheck.string({ unit: "grapheme", minLength: 1 }).filter(
        (s) => !s.includes("\u0000") && s.trim() !== ""
      )
    ],
    ([text]) => {
      expect(rightText(extract({ filename: "x.txt", mime_type: "", bytes: bytes(text) }))).toBe(
        tidy(text.replace(/^\ufeff/, ""))
      )
    }
  )
})
