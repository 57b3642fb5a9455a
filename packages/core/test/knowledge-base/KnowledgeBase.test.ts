import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, TestClock } from "effect"
import { BlobStore } from "../../src/files/BlobStore.js"
import { DocumentStore } from "../../src/knowledge-base/DocumentStore.js"
import {
  blobKey,
  cleanFilename,
  defaultMaxFileBytes,
  KnowledgeBase,
  layerWith,
  parseRef
} from "../../src/knowledge-base/KnowledgeBase.js"
import { InMemory } from "../../src/index.js"
import * as MemoryBlobStore from "../../src/memory/MemoryBlobStore.js"
import { OrganizationId } from "../../src/organizations/Organization.js"
import * as SecureRandom from "../../src/randomness/SecureRandom.js"
import * as Fixtures from "../../testing/Fixtures.js"

const engine = InMemory.layer
const bytes = (text: string) => new TextEncoder().encode(text)
const upload = (filename: string, content: string | Uint8Array, mimeType = "") => ({
  filename,
  mime_type: mimeType,
  bytes: typeof content === "string" ? bytes(content) : content
})

/** Uploads, lets background processing finish, and answers the document as it ended. */
const uploaded = (organizationId: OrganizationId, file: ReturnType<typeof upload>) =>
  Effect.gen(function* () {
    const kb = yield* KnowledgeBase
    const document = yield* kb.upload(organizationId, file)
    yield* kb.awaitIdle
    return yield* kb.get(organizationId, document.document_uuid)
  })

describe("KnowledgeBase", () => {
  it.effect("uploads a file pending, stores its bytes and hash, and processes it in the background", () =>
    Effect.gen(function* () {
      const org = yield* Fixtures.organization()
      const kb = yield* KnowledgeBase
      const document = yield* kb.upload(org.id, {
        ...upload("C:\\fakepath\\hello.txt", "hello", "application/octet-stream"),
        custom_metadata: { topic: "greeting" },
        source_url: "https://example.com/hello"
      })
      expect(document).toMatchObject({
        organization_id: org.id,
        filename: "hello.txt",
        file_size_bytes: 5,
        file_hash: "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
        mime_type: "text/plain",
        processing_status: "pending",
        total_chunks: 0,
        custom_metadata: { topic: "greeting" },
        parser_metadata: {},
        created_by: null,
        is_active: true,
        processing_error: null,
        source_url: "https://example.com/hello"
      })
      expect(document.document_uuid).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
      )
      expect(document.blob_key).toBe(`organizations/${org.id}/documents/${document.document_uuid}`)
      const blob = yield* (yield* BlobStore).get(document.blob_key)
      expect(Option.map(blob, (b) => [new TextDecoder().decode(b.bytes), b.content_type])).toEqual(
        Option.some(["hello", "text/plain"])
      )

      yield* kb.awaitIdle
      const processed = yield* kb.get(org.id, document.id)
      expect(processed).toMatchObject({
        processing_status: "completed",
        total_chunks: 1,
        processing_error: null,
        parser_metadata: {
          document_type: "text",
          line_count: 1,
          character_count: 5,
          chunk_size: 1000,
          chunk_overlap: 100
        }
      })
      const chunks = yield* kb.chunks(org.id, document.document_uuid, { page: 1, limit: 10 })
      expect(chunks.page.items).toEqual([
        { document_id: document.id, organization_id: org.id, index: 0, text: "hello" }
      ])
    }).pipe(Effect.provide(engine))
  )

  it.effect("reads every supported kind into chunks", () =>
    Effect.gen(function* () {
      const org = yield* Fixtures.organization()
      const kb = yield* KnowledgeBase
      const cases = [
        ["faq.md", "# FAQ\n\n**Parking** is free.", "FAQ\n\nParking is free.", "text/markdown"],
        ["people.csv", "name,role\nAda,engineer", "name: Ada\nrole: engineer", "text/csv"],
        ["data.json", '{"open": true}', "open: true", "application/json"],
        ["page.html", "<h1>Hi</h1><p>there</p>", "Hi\n\nthere", "text/html"]
      ] as const
      for (const [filename, content, text, mimeType] of cases) {
        const document = yield* uploaded(org.id, upload(filename, content))
        expect(document.mime_type).toBe(mimeType)
        expect(document.processing_status).toBe("completed")
        const chunks = yield* kb.chunks(org.id, document.id, { page: 1, limit: 10 })
        expect(chunks.page.items.map((c) => c.text)).toEqual([text])
      }
    }).pipe(Effect.provide(engine))
  )

  it.effect("splits long documents into ordered chunks, and pages through them", () =>
    Effect.gen(function* () {
      const org = yield* Fixtures.organization()
      const kb = yield* KnowledgeBase
      const paragraphs = Array.from(
        { length: 30 },
        (_, i) => `Paragraph ${i}. ${"Some words here. ".repeat(20)}`
      )
      const document = yield* uploaded(org.id, upload("long.txt", paragraphs.join("\n\n")))
      expect(document.total_chunks).toBeGreaterThan(3)
      const all = yield* kb.chunks(org.id, document.id, { page: 1, limit: 100 })
      expect(all.page.total_count).toBe(document.total_chunks)
      expect(all.page.items.map((c) => c.index)).toEqual([...Array(document.total_chunks).keys()])
      for (const chunk of all.page.items) expect(chunk.text.length).toBeLessThanOrEqual(1000)
      const second = yield* kb.chunks(org.id, document.id, { page: 2, limit: 2 })
      expect(second.page.items.map((c) => c.index)).toEqual([2, 3])
    }).pipe(Effect.provide(engine))
  )

  it.effect("fails processing with a reason for unsupported, undecodable, malformed and empty files", () =>
    Effect.gen(function* () {
      const org = yield* Fixtures.organization()
      const kb = yield* KnowledgeBase
      const cases = [
        [
          upload("scan.pdf", "%PDF-1.7", "application/pdf"),
          "application/pdf",
          /^unsupported_type: scan\.pdf/
        ],
        [upload("noext", "x"), "application/octet-stream", /^unsupported_type: /],
        [upload("latin2.txt", new Uint8Array([0x5a, 0xbf, 0xf3])), "text/plain", /^not_utf8: /],
        [upload("bad.json", "{nope"), "application/json", /^malformed_json: /],
        [upload("blank.md", "\n\n---\n"), "text/markdown", /^no_text: /],
        [upload("empty.txt", ""), "text/plain", /^no_text: /]
      ] as const
      for (const [file, mimeType, error] of cases) {
        const document = yield* uploaded(org.id, file)
        expect(document.mime_type).toBe(mimeType)
        expect(document.processing_status).toBe("failed")
        expect(document.processing_error).toMatch(error)
        expect(document.total_chunks).toBe(0)
        expect((yield* kb.chunks(org.id, document.id, { page: 1, limit: 10 })).page.items).toEqual([])
      }
    }).pipe(Effect.provide(engine))
  )

  it.effect("refuses files over the limit without storing anything", () =>
    Effect.gen(function* () {
      const org = yield* Fixtures.organization()
      const kb = yield* KnowledgeBase
      expect(kb.maxFileBytes).toBe(defaultMaxFileBytes)
      const error = yield* Effect.flip(
        kb.upload(org.id, upload("big.txt", new Uint8Array(defaultMaxFileBytes + 1)))
      )
      expect(error._tag).toBe("DocumentTooLarge")
      expect(error.message).toBe(
        `file_too_large: the file (${defaultMaxFileBytes + 1} bytes) is over the limit of ${defaultMaxFileBytes} bytes`
      )
      expect((yield* kb.list(org.id, { page: 1, limit: 10 })).total_count).toBe(0)
      const atLimit = yield* kb.upload(
        org.id,
        upload("edge.txt", new Uint8Array(defaultMaxFileBytes).fill(0x61))
      )
      expect(atLimit.file_size_bytes).toBe(defaultMaxFileBytes)
    }).pipe(Effect.provide(engine))
  )

  it.effect("honours a configured limit and chunk size", () =>
    Effect.gen(function* () {
      const org = yield* Fixtures.organization()
      const kb = yield* KnowledgeBase
      expect(kb.maxFileBytes).toBe(20)
      expect((yield* Effect.flip(kb.upload(org.id, upload("a.txt", "0123456789 0123456789"))))._tag).toBe(
        "DocumentTooLarge"
      )
      const document = yield* uploaded(org.id, upload("a.txt", "one two three"))
      expect(document.total_chunks).toBe(3)
      expect(document.parser_metadata).toMatchObject({ chunk_size: 5, chunk_overlap: 0 })
    }).pipe(
      Effect.provide(
        layerWith({ maxFileBytes: 20, chunking: { size: 5, overlap: 0 } }).pipe(
          Layer.provideMerge(
            Layer.mergeAll(InMemory.layerStores, MemoryBlobStore.layer, SecureRandom.layerWebCrypto)
          )
        )
      )
    )
  )

  it.effect("finds a document by id or uuid (any case) only in its own organization", () =>
    Effect.gen(function* () {
      const owner = yield* Fixtures.organization()
      const stranger = yield* Fixtures.organization()
      const kb = yield* KnowledgeBase
      const document = yield* uploaded(owner.id, upload("a.txt", "hello"))
      for (const ref of [String(document.id), document.document_uuid, document.document_uuid.toUpperCase()]) {
        expect((yield* kb.get(owner.id, ref)).id).toBe(document.id)
        const error = yield* Effect.flip(kb.get(stranger.id, ref))
        expect(error._tag).toBe("DocumentNotFound")
        expect(error.message).toBe(`Document ${ref} not found`)
      }
      for (const ref of ["0", "abc", "12x", "-1", "99999999999999999"]) {
        expect((yield* Effect.flip(kb.get(owner.id, ref)))._tag).toBe("DocumentNotFound")
      }
      expect((yield* Effect.flip(kb.remove(stranger.id, document.document_uuid)))._tag).toBe(
        "DocumentNotFound"
      )
      expect(
        (yield* Effect.flip(kb.chunks(stranger.id, document.id.toString(), { page: 1, limit: 5 })))._tag
      ).toBe("DocumentNotFound")
      expect((yield* kb.list(stranger.id, { page: 1, limit: 10 })).total_count).toBe(0)
    }).pipe(Effect.provide(engine))
  )

  it.effect("deletes a document with its chunks and its file", () =>
    Effect.gen(function* () {
      const org = yield* Fixtures.organization()
      const kb = yield* KnowledgeBase
      const blobs = yield* BlobStore
      const document = yield* uploaded(org.id, upload("a.txt", "hello"))
      const removed = yield* kb.remove(org.id, document.document_uuid)
      expect(removed.id).toBe(document.id)
      expect(yield* blobs.get(document.blob_key)).toEqual(Option.none())
      expect(yield* (yield* DocumentStore).chunks(org.id, document.id)).toEqual([])
      expect((yield* Effect.flip(kb.get(org.id, document.id.toString())))._tag).toBe("DocumentNotFound")
      expect((yield* Effect.flip(kb.remove(org.id, document.id.toString())))._tag).toBe("DocumentNotFound")
    }).pipe(Effect.provide(engine))
  )

  it.effect("keeps duplicates as separate documents with the same hash", () =>
    Effect.gen(function* () {
      const org = yield* Fixtures.organization()
      const kb = yield* KnowledgeBase
      const first = yield* uploaded(org.id, upload("a.txt", "same bytes"))
      // a second later, so that newest first is an order of time, not of (random) ids
      yield* TestClock.adjust("1 second")
      const second = yield* uploaded(org.id, upload("b.txt", "same bytes"))
      expect(second.id).not.toBe(first.id)
      expect(second.file_hash).toBe(first.file_hash)
      const page = yield* kb.list(org.id, { page: 1, limit: 10 })
      expect(page.items.map((d) => d.id)).toEqual([second.id, first.id])
    }).pipe(Effect.provide(engine))
  )

  it.effect("processes again on request, and records a vanished file as a failure", () =>
    Effect.gen(function* () {
      const org = yield* Fixtures.organization()
      const kb = yield* KnowledgeBase
      const document = yield* uploaded(org.id, upload("a.txt", "hello"))
      expect((yield* kb.process(org.id, document.id.toString())).processing_status).toBe("completed")
      yield* (yield* BlobStore).remove(document.blob_key)
      const again = yield* kb.process(org.id, document.document_uuid)
      expect(again).toMatchObject({
        processing_status: "failed",
        processing_error: "file_missing: the original file is gone",
        total_chunks: 0
      })
    }).pipe(Effect.provide(engine))
  )

  it.effect("searches the chunks of the organization's completed documents, best first", () =>
    Effect.gen(function* () {
      const org = yield* Fixtures.organization()
      const stranger = yield* Fixtures.organization()
      const kb = yield* KnowledgeBase
      const hours = yield* uploaded(org.id, upload("hours.md", "# Hours\n\nWe are open Monday to Friday."))
      const parking = yield* uploaded(org.id, upload("parking.txt", "Parking is free on Monday."))
      yield* uploaded(org.id, upload("broken.json", "{monday"))
      yield* uploaded(stranger.id, upload("other.txt", "Monday Monday Monday parking"))

      const hits = yield* kb.search(org.id, "parking monday", 10)
      expect(hits.map((h) => [h.document.id, h.chunk.index])).toEqual([
        [parking.id, 0],
        [hours.id, 0]
      ])
      expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score)
      expect(yield* kb.search(org.id, "parking monday", 1)).toHaveLength(1)
      expect(yield* kb.search(org.id, "?!", 10)).toEqual([])
      // only completed documents are searched, even when chunks are at hand
      yield* (yield* DocumentStore).update(
        org.id,
        parking.id,
        { processing_status: "processing" },
        Fixtures.epoch
      )
      expect((yield* kb.search(org.id, "parking monday", 10)).map((h) => h.document.id)).toEqual([hours.id])
      expect(yield* kb.search(org.id, "nothing-like-this", 10)).toEqual([])
    }).pipe(Effect.provide(engine))
  )
})

describe("KnowledgeBase helpers", () => {
  it("parses `{document_id}`: positive integers are ids, UUIDs are uuids, lower-cased", () => {
    expect(parseRef("42")).toEqual(Option.some({ _tag: "Id", id: 42 }))
    expect(parseRef("0B8F1C2E-1111-4222-8333-444455556666")).toEqual(
      Option.some({ _tag: "Uuid", uuid: "0b8f1c2e-1111-4222-8333-444455556666" })
    )
    for (const bad of ["0", "042", "-1", "1.5", "abc", "", "9007199254740993", "0b8f1c2e-1111"]) {
      expect(parseRef(bad)).toEqual(Option.none())
    }
  })

  it("cleans file names: last path segment, no control characters, at most 255 with the extension kept", () => {
    expect(cleanFilename("C:\\fakepath\\report.pdf")).toBe("report.pdf")
    expect(cleanFilename("../../etc/passwd")).toBe("passwd")
    expect(cleanFilename(" a\u0000b\n.txt ")).toBe("ab.txt")
    expect(cleanFilename("  ")).toBe("document")
    const long = cleanFilename(`${"x".repeat(300)}.markdown`)
    expect(long).toHaveLength(255)
    expect(long.endsWith("x.markdown")).toBe(true)
  })

  it("keys files by organization and uuid", () => {
    expect(blobKey(OrganizationId.make(7), "0b8f1c2e-1111-4222-8333-444455556666")).toBe(
      "organizations/7/documents/0b8f1c2e-1111-4222-8333-444455556666"
    )
  })
})
