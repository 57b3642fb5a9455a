import type { Schema } from "../../api/Client.js"

export type KnowledgeDocument = Schema<"KnowledgeBaseDocument">

/** A document's page in the console. */
export const documentPath = (documentUuid: string): string =>
  `knowledge-base/${encodeURIComponent(documentUuid)}`

/** A size in bytes as a person reads it: `812 B`, `12.4 KB`, `3.1 MB` (1 KB = 1,024 bytes). */
export const formatBytes = (bytes: number): string => {
  if (bytes < 1024) return `${bytes} B`
  const units = ["KB", "MB", "GB"]
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`
}

/** A document's processing, in words (a failure with its reason). */
export const processingOf = (document: KnowledgeDocument): string => {
  switch (document.processing_status) {
    case "pending":
      return "Waiting to be read"
    case "processing":
      return "Being read"
    case "completed":
      return `Ready: ${document.total_chunks} chunk${document.total_chunks === 1 ? "" : "s"}`
    case "failed":
      return `Failed: ${document.processing_error ?? "no reason given"}`
  }
}

/** Whether a page holds a document still being processed (the list looks again until none is). */
export const stillProcessing = (documents: ReadonlyArray<KnowledgeDocument>): boolean =>
  documents.some(
    (document) => document.processing_status === "pending" || document.processing_status === "processing"
  )

/** How far an upload has come, in whole percent (undefined while the total is unknown). */
export const percentOf = (sent: number, total: number | undefined): number | undefined =>
  total === undefined || total <= 0 ? undefined : Math.min(100, Math.floor((sent / total) * 100))
