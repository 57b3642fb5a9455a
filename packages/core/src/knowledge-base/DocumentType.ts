/** The kinds of file the knowledge base reads, recognised by extension or media type. */
import { Option, Schema } from "effect"

/** The kinds of file the knowledge base reads. Anything else is stored but fails processing. */
export const DocumentType = Schema.Literal("text", "markdown", "csv", "json", "html")
export type DocumentType = typeof DocumentType.Type

/** The media type recorded for each kind (`mime_type` of a document whose kind was recognised). */
export const mimeTypes: Readonly<Record<DocumentType, string>> = {
  text: "text/plain",
  markdown: "text/markdown",
  csv: "text/csv",
  json: "application/json",
  html: "text/html"
}

/** What people call each kind, for error messages. */
export const labels: Readonly<Record<DocumentType, string>> = {
  text: "plain text",
  markdown: "Markdown",
  csv: "CSV",
  json: "JSON",
  html: "HTML"
}

const byExtension: Readonly<Record<string, DocumentType>> = {
  txt: "text",
  text: "text",
  md: "markdown",
  markdown: "markdown",
  mdown: "markdown",
  mkd: "markdown",
  csv: "csv",
  json: "json",
  html: "html",
  htm: "html",
  xhtml: "html"
}

const byMimeType: Readonly<Record<string, DocumentType>> = {
  "text/plain": "text",
  "text/markdown": "markdown",
  "text/x-markdown": "markdown",
  "text/csv": "csv",
  "application/csv": "csv",
  "text/comma-separated-values": "csv",
  "application/json": "json",
  "text/json": "json",
  "text/html": "html",
  "application/xhtml+xml": "html"
}

/** The extensions and media types that are read, for documentation and messages. */
export const supported = {
  extensions: Object.keys(byExtension),
  mime_types: Object.keys(byMimeType)
} as const

/** A media type without parameters, lower-case: `Text/HTML; charset=utf-8` → `text/html`. */
export const essence = (mimeType: string): string => mimeType.split(";")[0]!.trim().toLowerCase()

/** The file name's extension, lower-case, without the dot; empty when it has none. */
export const extensionOf = (filename: string): string => {
  const base = filename.split(/[\\/]/).pop() ?? ""
  const dot = base.lastIndexOf(".")
  return dot <= 0 ? "" : base.slice(dot + 1).toLowerCase()
}

/**
 * The kind of a file: from its extension when that is a known one (browsers often declare
 * `application/octet-stream` for Markdown or CSV), else from the declared media type.
 */
export const detect = (filename: string, declaredMimeType: string): Option.Option<DocumentType> =>
  Option.fromNullable(byExtension[extensionOf(filename)]).pipe(
    Option.orElse(() => Option.fromNullable(byMimeType[essence(declaredMimeType)]))
  )
