/** One server-sent event: its name (`message` when the stream gave none) and its data lines joined. */
export interface ServerEvent {
  readonly event: string
  readonly data: string
}

/**
 * Reads a `text/event-stream` as it arrives, in chunks cut anywhere (inside a line, inside a character's
 * bytes: the decoder keeps them): `push` answers the events the chunk completed. As the HTML standard
 * reads it: lines end with CRLF, LF or CR; `:` starts a comment; an empty line dispatches the event; an
 * event without data is not dispatched.
 */
export class EventStreamReader {
  private readonly decoder = new TextDecoder()
  private buffer = ""
  private event = ""
  private data: Array<string> = []
  private pendingCr = false

  /** The events completed by this chunk of bytes. */
  push(chunk: Uint8Array): Array<ServerEvent> {
    return this.lines(this.decoder.decode(chunk, { stream: true }))
  }

  /** The events completed when the stream ends (a last event without its empty line is dropped, as browsers do). */
  end(): Array<ServerEvent> {
    return this.lines(this.decoder.decode())
  }

  private lines(text: string): Array<ServerEvent> {
    const events: Array<ServerEvent> = []
    let rest = text
    // a CR at a chunk's end may be the first half of a CRLF
    if (this.pendingCr && rest.startsWith("\n")) rest = rest.slice(1)
    this.pendingCr = false
    this.buffer += rest
    let match: RegExpExecArray | null
    const lineEnd = /\r\n|\n|\r/g
    let start = 0
    while ((match = lineEnd.exec(this.buffer)) !== null) {
      if (match[0] === "\r" && match.index === this.buffer.length - 1) {
        this.pendingCr = true
      }
      const event = this.line(this.buffer.slice(start, match.index))
      if (event !== undefined) events.push(event)
      start = match.index + match[0].length
    }
    this.buffer = this.buffer.slice(start)
    return events
  }

  private line(line: string): ServerEvent | undefined {
    if (line === "") {
      const event =
        this.data.length === 0 ? undefined : { event: this.event || "message", data: this.data.join("\n") }
      this.event = ""
      this.data = []
      return event
    }
    if (line.startsWith(":")) return undefined
    const colon = line.indexOf(":")
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? "" : line.slice(colon + 1)
    if (value.startsWith(" ")) value = value.slice(1)
    if (field === "event") this.event = value
    else if (field === "data") this.data.push(value)
    return undefined
  }
}
