import type { HttpClient } from "@effect/platform"
import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"
import {
  documents,
  type DocumentBody,
  form,
  upload,
  settled,
  uploadAndSettle
} from "../support/KnowledgeBaseFixtures.js"

const chunkTexts = (client: HttpClient.HttpClient, ref: string | number) =>
  Effect.map(send(client, HttpClientRequest.get(`${documents}/${ref}/chunks`)), (response) => {
    expect(response.status).toBe(200)
    return (response.body as { items: Array<{ text: string }> }).items.map((chunk) => chunk.text)
  })

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("knowledge base over HTTP, %s storage", (_, server) => {
  it.effect("uploads a text file: answers it pending with every field, then it completes with chunks", () =>
    Effect.gen(function* () {
      const { apiKey, organization: org } = yield* organization()
      const client = yield* rawClient(apiKey)
      const created = yield* send(
        client,
        upload(
          form(
            { name: "hello.txt", content: "Hello from the clinic.\n\nWe open at eight.", type: "text/plain" },
            { custom_metadata: '{"topic":"hours","tags":["a"]}', source_url: "https://example.com/hello" }
          )
        )
      )
      expect(created.status).toBe(200)
      expect(created.headers["x-request-id"]).toBeDefined()
      const document = created.body as DocumentBody
      expect(Object.keys(document).sort()).toEqual(
        [
          "id",
          "document_uuid",
          "filename",
          "file_size_bytes",
          "file_hash",
          "mime_type",
          "processing_status",
          "total_chunks",
          "custom_metadata",
          "parser_metadata",
          "created_at",
          "updated_at",
          "organization_id",
          "created_by",
          "is_active",
          "processing_error",
          "source_url"
        ].sort()
      )
      expect(document).toMatchObject({
        filename: "hello.txt",
        file_size_bytes: 41,
        mime_type: "text/plain",
        total_chunks: 0,
        custom_metadata: { topic: "hours", tags: ["a"] },
        parser_metadata: {},
        organization_id: org.id,
        created_by: null,
        is_active: true,
        processing_error: null,
        source_url: "https://example.com/hello"
      })
      expect(["pending", "processing"]).toContain(document.processing_status)
      expect(document.file_hash).toMatch(/^[0-9a-f]{64}$/)
      expect(document.document_uuid).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
      )
      expect(typeof document.created_at).toBe("string")

      const done = yield* settled(client, document.id)
      expect(done).toMatchObject({
        id: document.id,
        processing_status: "completed",
        total_chunks: 1,
        processing_error: null,
        parser_metadata: {
          document_type: "text",
          line_count: 3,
          character_count: 41,
          chunk_size: 1000,
          chunk_overlap: 100
        }
      })
      const byUuid = yield* send(
        client,
        HttpClientRequest.get(`${documents}/${document.document_uuid.toUpperCase()}`)
      )
      expect(byUuid.status).toBe(200)
      expect(byUuid.body).toEqual(done)

      const chunks = yield* send(
        client,
        HttpClientRequest.get(`${documents}/${document.document_uuid}/chunks`)
      )
      expect(chunks.status).toBe(200)
      expect(chunks.body).toEqual({
        items: [
          {
            document_id: document.id,
            document_uuid: document.document_uuid,
            chunk_index: 0,
            text: "Hello from the clinic.\n\nWe open at eight."
          }
        ],
        total_count: 1,
        total_pages: 1,
        page: 1,
        limit: 50
      })
    }).pipe(Effect.provide(server))
  )

  it.effect("reads Markdown, CSV, JSON and HTML into sensible chunks", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)

      const markdown = yield* uploadAndSettle(client, {
        name: "faq.md",
        content:
          "# Parking\n\nParking is **free** for [patients](https://example.com).\n\n- Level -1\n- Level -2\n",
        type: "application/octet-stream"
      })
      expect(markdown).toMatchObject({
        processing_status: "completed",
        mime_type: "text/markdown",
        parser_metadata: { document_type: "markdown", heading_count: 1, title: "Parking" }
      })
      expect(yield* chunkTexts(client, markdown.id)).toEqual([
        "Parking\n\nParking is free for patients.\n\n- Level -1\n- Level -2"
      ])

      const csv = yield* uploadAndSettle(client, {
        name: "staff.csv",
        content: 'name,role,phone\nAda,"Doctor, surgery",+48 500 000 001\nBob,Nurse,\n',
        type: "text/csv"
      })
      expect(csv).toMatchObject({
        processing_status: "completed",
        mime_type: "text/csv",
        parser_metadata: {
          document_type: "csv",
          row_count: 2,
          column_count: 3,
          columns: ["name", "role", "phone"]
        }
      })
      expect(yield* chunkTexts(client, csv.id)).toEqual([
        "name: Ada\nrole: Doctor, surgery\nphone: +48 500 000 001\n\nname: Bob\nrole: Nurse"
      ])

      const data = yield* uploadAndSettle(client, {
        name: "clinic.json",
        content: JSON.stringify({ clinic: { name: "Acme", open: ["Mon", "Tue"] }, beds: 12 }),
        type: "application/json"
      })
      expect(data).toMatchObject({
        processing_status: "completed",
        mime_type: "application/json",
        parser_metadata: { document_type: "json", value_count: 4 }
      })
      expect(yield* chunkTexts(client, data.id)).toEqual([
        "clinic.name: Acme\nclinic.open[0]: Mon\nclinic.open[1]: Tue\n\nbeds: 12"
      ])

      const page = yield* uploadAndSettle(client, {
        name: "page.html",
        content:
          "<html><head><title>Clinic</title><style>h1{}</style></head><body><h1>Welcome</h1>" +
          "<p>Call us &amp; book.</p><script>track()</script><ul><li>X-ray</li><li>Lab</li></ul></body></html>",
        type: "text/html"
      })
      expect(page).toMatchObject({
        processing_status: "completed",
        mime_type: "text/html",
        parser_metadata: { document_type: "html", title: "Clinic" }
      })
      expect(yield* chunkTexts(client, page.id)).toEqual(["Welcome\n\nCall us & book.\n\n- X-ray\n- Lab"])
    }).pipe(Effect.provide(server))
  )

  it.effect("splits a long document into ordered chunks of at most 1,000 characters, paginated", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const paragraphs = Array.from(
        { length: 40 },
        (_, i) => `Section ${i}. ${"The clinic follows the usual rules here. ".repeat(8)}`
      )
      const document = yield* uploadAndSettle(client, { name: "rules.txt", content: paragraphs.join("\n\n") })
      expect(document.processing_status).toBe("completed")
      expect(document.total_chunks).toBeGreaterThan(5)
      const all = yield* send(client, HttpClientRequest.get(`${documents}/${document.id}/chunks?limit=100`))
      const items = (all.body as { items: Array<{ chunk_index: number; text: string }>; total_count: number })
        .items
      expect((all.body as { total_count: number }).total_count).toBe(document.total_chunks)
      expect(items.map((c) => c.chunk_index)).toEqual([...Array(document.total_chunks).keys()])
      for (const chunk of items) {
        expect(chunk.text.length).toBeGreaterThan(0)
        expect(chunk.text.length).toBeLessThanOrEqual(1000)
      }
      expect(items[0]!.text.startsWith("Section 0.")).toBe(true)
      expect(items.at(-1)!.text.endsWith("rules here.")).toBe(true)

      const second = yield* send(
        client,
        HttpClientRequest.get(`${documents}/${document.id}/chunks?page=2&limit=2`)
      )
      expect(second.body).toMatchObject({ page: 2, limit: 2, total_count: document.total_chunks })
      expect(
        (second.body as { items: Array<{ chunk_index: number }> }).items.map((c) => c.chunk_index)
      ).toEqual([2, 3])
      const past = yield* send(client, HttpClientRequest.get(`${documents}/${document.id}/chunks?page=999`))
      expect(past.status).toBe(200)
      expect((past.body as { items: Array<unknown> }).items).toEqual([])
    }).pipe(Effect.provide(server))
  )

  it.effect("records unsupported and undecodable files as failed, with the reason", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const pdf = yield* uploadAndSettle(client, {
        name: "scan.pdf",
        content: "%PDF-1.7 binary",
        type: "application/pdf"
      })
      expect(pdf).toMatchObject({
        processing_status: "failed",
        mime_type: "application/pdf",
        total_chunks: 0,
        processing_error:
          "unsupported_type: scan.pdf (application/pdf) is not plain text, Markdown, CSV, JSON or HTML"
      })
      expect(yield* chunkTexts(client, pdf.id)).toEqual([])

      const latin2 = yield* uploadAndSettle(client, {
        name: "notes.txt",
        content: new Uint8Array([0x5a, 0x61, 0xbf, 0xf3, 0xb3, 0xe6])
      })
      expect(latin2).toMatchObject({
        processing_status: "failed",
        processing_error: "not_utf8: notes.txt is not UTF-8 text"
      })

      const broken = yield* uploadAndSettle(client, { name: "broken.json", content: "{nope" })
      expect(broken.processing_status).toBe("failed")
      expect(broken.processing_error).toMatch(/^malformed_json: /)
    }).pipe(Effect.provide(server))
  )
})
