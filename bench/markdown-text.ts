// How fast `MarkdownText.markdown` reads Markdown, and that no input costs more than linear time. Run:
// `node --conditions=@voice-agent-platform/source --import tsx bench/markdown-text.ts [MiB]`.
// First an ordinary document (a realistic mixed one repeated to the size, 10 MiB by default: the
// upload limit), then hostile ones at two sizes: the time should at most double with the size
// (a ratio near 4 means quadratic). Deep nesting and long backtick runs are read as plain text (see
// `maxNesting`, `maxBacktickRun`); the figures show what that costs too.
import { markdown } from "@voice-agent-platform/core/knowledge-base/MarkdownText.js"
import { loadavg } from "node:os"

const mib = Number(process.argv[2] ?? 10)

const mixed = [
  "# Opening hours and contact",
  "",
  'We are open **Monday** to _Friday_, 8:00–17:00. See [the page](https://example.com/hours "Hours") or call `+48 22 000 00 00`.',
  "Closed on public holidays; on *Christmas Eve* we close at 13:00.",
  "",
  "## Prices",
  "",
  "| Service | Price | Notes |",
  "|:--------|------:|-------|",
  "| Consultation | 150 zł | first visit ~~free~~ |",
  "| Follow-up | 100 zł | |",
  "",
  "- [x] bring your ID",
  "- [ ] bring previous results",
  "  - blood tests",
  "  - X-ray images, see ![scan](scan.png)",
  "1. register at the desk",
  "2. wait to be called",
  "",
  "> Note: parking is free for patients. Ask at the desk for a ticket &amp; keep it.",
  "> Second line of the quote with a <https://example.org/parking> link.",
  "",
  "```",
  "Opening hours: Mon-Fri 8-17",
  "Phone: +48 22 000 00 00",
  "```",
  "",
  "Zażółć gęślą jaźń — pacjenci proszeni są o punktualność. W razie spóźnienia powyżej 15 minut wizyta może",
  "zostać przełożona. Więcej informacji w [regulaminie][reg] oraz na stronie głównej.",
  "",
  "[reg]: https://example.com/regulamin",
  "",
  '<div class="notice">',
  "<p>Remember to <b>cancel</b> at least 24 hours ahead.</p>",
  "</div>",
  "",
  "---",
  ""
].join("\n")

/** Hostile inputs of about `n` characters. */
const hostile: ReadonlyArray<readonly [string, (n: number) => string]> = [
  ["250,000+ levels of `>`", (n) => `${">".repeat(n)} x`],
  ["125,000+ levels of `- `", (n) => `${"- ".repeat(n / 2)}x`],
  [
    "list indentation, 500 and 1,000 levels",
    (n) => Array.from({ length: Math.sqrt(n) }, (_, i) => `${" ".repeat(2 * i)}- x`).join("\n")
  ],
  ["a run of `*`", (n) => `a${"*".repeat(n)}b`],
  ["a run of `_`", (n) => `a${"_".repeat(n)}b`],
  ["a run of `~`", (n) => `a${"~".repeat(n)}b`],
  ["a run of backticks", (n) => `a${"`".repeat(n)}b`],
  ["a run of `[`", (n) => `${"[".repeat(n)}a`],
  ["`*a*a*a…`", (n) => "*a".repeat(n / 2)],
  ["`_a _a … b_` (unmatched openers)", (n) => `${"_a ".repeat(n / 3)}b_`],
  ["`*` nested: `*^n a *^n`", (n) => `${"*".repeat(n / 2)}a${"*".repeat(n / 2)}`],
  ["`~~a ~~a … b~~`", (n) => `${"~~a ".repeat(n / 4)}b~~`],
  [
    "backtick runs of every length",
    (n) => Array.from({ length: Math.sqrt(2 * n) }, (_, i) => `${"`".repeat(i + 1)}a`).join("")
  ],
  ["`[a](` repeated", (n) => "[a](".repeat(n / 4)],
  ["a table of 1-column rows", (n) => `a|b\n-|-\n${"x\n".repeat(n / 2)}`]
]

/** The best of three runs: the machine is shared. */
const seconds = (run: () => unknown) => {
  let best = Infinity
  for (let i = 0; i < 3; i++) {
    const start = performance.now()
    run()
    best = Math.min(best, (performance.now() - start) / 1000)
  }
  return best
}

markdown(mixed.repeat(30)) // warm up
const document = mixed.repeat(Math.ceil((mib * 1024 * 1024) / mixed.length))
const start = performance.now()
markdown(document)
const took = (performance.now() - start) / 1000
console.log(
  `load average ${loadavg()
    .map((load) => load.toFixed(2))
    .join(" ")}`
)
console.log(
  `ordinary document, ${(document.length / 1e6).toFixed(1)} MB: ${took.toFixed(2)} s, ${(document.length / 1e6 / took).toFixed(2)} MB/s`
)
for (const [name, make] of hostile) {
  const [small, large] = [250_000, 1_000_000].map((n) => make(n))
  const [a, b] = [small, large].map((input) => seconds(() => markdown(input!)))
  console.log(
    `${name.padEnd(36)} ${(small!.length / 1e3).toFixed(0).padStart(4)} kB ${(a! * 1e3).toFixed(0).padStart(5)} ms, ${(large!.length / 1e3).toFixed(0).padStart(4)} kB ${(b! * 1e3).toFixed(0).padStart(5)} ms, ratio ${(b! / a!).toFixed(1)} for ×${(large!.length / small!.length).toFixed(0)}`
  )
}
