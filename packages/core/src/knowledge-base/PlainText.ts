/** Plain text: strict UTF-8 decoding and the tidying every format ends with. */
import { Option } from "effect"
import type { Extraction } from "./Extraction.js"

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
export const tidy = (text: string): string =>
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
  const text = tidy(source)
  return { text, metadata: { line_count: countLines(text) } }
}

/** A value on one line: every run of whitespace (line breaks too) becomes one space, trimmed. */
export const oneLine = (value: string) => value.replace(/\s+/g, " ").trim()
