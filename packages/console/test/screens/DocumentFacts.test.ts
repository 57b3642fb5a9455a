import { describe, expect, it } from "@effect/vitest"
import {
  formatBytes,
  type KnowledgeDocument,
  percentOf,
  processingOf,
  stillProcessing
} from "../../src/screens/knowledge-base/DocumentFacts.js"

const document = (patch: Partial<KnowledgeDocument>): KnowledgeDocument => ({
  id: 1,
  document_uuid: "d-1",
  filename: "handbook.md",
  file_size_bytes: 10,
  file_hash: "0".repeat(64),
  mime_type: "text/markdown",
  processing_status: "completed",
  total_chunks: 1,
  custom_metadata: {},
  parser_metadata: {},
  created_at: "2026-11-27T12:00:00.000Z",
  updated_at: "2026-11-27T12:00:00.000Z",
  organization_id: 1,
  created_by: null,
  is_active: true,
  processing_error: null,
  source_url: null,
  ...patch
})

describe("a knowledge-base document as the console shows it", () => {
  it("gives sizes in bytes, KB and MB", () => {
    expect(formatBytes(0)).toBe("0 B")
    expect(formatBytes(1023)).toBe("1023 B")
    expect(formatBytes(1536)).toBe("1.5 KB")
    expect(formatBytes(200 * 1024)).toBe("200 KB")
    expect(formatBytes(10 * 1024 * 1024)).toBe("10 MB")
  })

  it("says how an upload has come, in whole percent, unknown without a total", () => {
    expect(percentOf(0, 200)).toBe(0)
    expect(percentOf(199, 200)).toBe(99)
    expect(percentOf(200, 200)).toBe(100)
    expect(percentOf(300, 200)).toBe(100)
    expect(percentOf(5, undefined)).toBeUndefined()
    expect(percentOf(5, 0)).toBeUndefined()
  })

  it("says where processing is, and whether the list must look again", () => {
    expect(processingOf(document({ total_chunks: 3 }))).toBe("Ready: 3 chunks")
    expect(processingOf(document({ total_chunks: 1 }))).toBe("Ready: 1 chunk")
    expect(processingOf(document({ processing_status: "failed", processing_error: "not UTF-8" }))).toBe(
      "Failed: not UTF-8"
    )
    expect(stillProcessing([document({}), document({ processing_status: "failed" })])).toBe(false)
    expect(stillProcessing([document({}), document({ processing_status: "pending" })])).toBe(true)
    expect(stillProcessing([document({ processing_status: "processing" })])).toBe(true)
  })
})
