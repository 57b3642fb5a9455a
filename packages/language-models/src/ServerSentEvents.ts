/**
 * Server-sent events as the WHATWG HTML standard reads them (`text/event-stream`), fed text as it comes
 * off the network: a line, a field or a line break may be split anywhere between two pieces.
 *
 * Lines end with CRLF, LF or CR; a blank line dispatches the event; a line starting with `:` is a comment
 * (servers send them to keep a connection alive); `data` lines accumulate, joined with LF; one space
 * after the colon is dropped; `event`, `id`, `retry` and unknown fields are read past (Chat Completions
 * carries everything in `data`). An event with no data is not dispatched.
 */

/** A parser's state between two pieces of text: the line not yet ended and the event's data lines so far. */
export interface Parser {
  /** Text after the last line break seen. */
  readonly partial: string
  /** Whether the last piece ended with a CR, so an LF starting the next one ends no second line. */
  readonly afterCarriageReturn: boolean
  /** The current event's `data` lines. */
  readonly data: ReadonlyArray<string>
}

/** A parser that has seen nothing. */
export const initial: Parser = { partial: "", afterCarriageReturn: false, data: [] }

/** The parser after one more piece of text, and the data of every event that piece completed. */
export const feed = (parser: Parser, text: string): readonly [Parser, ReadonlyArray<string>] => {
  const events: Array<string> = []
  let data = [...parser.data]
  let start = 0
  let index = 0
  let partial = parser.partial
  // an LF right after a CR that ended the previous piece belongs to that line break
  if (parser.afterCarriageReturn && text.startsWith("\n")) {
    start = 1
    index = 1
  }
  const endLine = (line: string) => {
    if (line === "") {
      if (data.length > 0) events.push(data.join("\n"))
      data = []
      return
    }
    if (line.startsWith(":")) return
    const colon = line.indexOf(":")
    const field = colon === -1 ? line : line.slice(0, colon)
    if (field !== "data") return
    const value = colon === -1 ? "" : line.slice(colon + 1)
    data.push(value.startsWith(" ") ? value.slice(1) : value)
  }
  let afterCarriageReturn = false
  while (index < text.length) {
    const char = text.charCodeAt(index)
    if (char === 10 || char === 13) {
      endLine(partial + text.slice(start, index))
      partial = ""
      if (char === 13) {
        if (index + 1 === text.length) afterCarriageReturn = true
        else if (text.charCodeAt(index + 1) === 10) index++
      }
      start = index + 1
    }
    index++
  }
  partial += text.slice(start)
  return [{ partial, afterCarriageReturn, data }, events]
}

/**
 * The data of an event the stream ended in the middle of: the standard drops it, but a server that
 * closes right after its last `data:` line (no blank line) meant it, so it is kept.
 */
export const end = (parser: Parser): ReadonlyArray<string> => feed(parser, "\n\n")[1]
