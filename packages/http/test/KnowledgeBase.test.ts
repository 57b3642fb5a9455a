import type { HttpClient } from "@effect/platform"
import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "./support/TestServer.js"
import * as StorableText from "@voice-agent-platform/contract/middleware/StorableText.js"

const documents = "/api/v1/knowledge-base/documents"

type DocumentBody = {
  id: number
  document_uuid: string
  processing_status: string
  total_chunks: number
  processing_error: string | null
  [key: string]: unknown
}
type Issue = { loc: Array<string | number>; msg: string; type: string }

/** A form with the document in `file`, and any other parts given. */
const form = (
  file: { readonly name: string; readonly content: string | Uint8Array; readonly type?: string } | null,
  fields: Record<string, string> = {}
) => {
  const data = new FormData()
  if (file !== null) data.append("file", new Blob([file.content], { type: file.type ?? "" }), file.name)
  for (const [key, value] of Object.entries(fields)) data.append(key, value)
  return data
}

const upload = (data: FormData) =>
  HttpClientRequest.post(documents).pipe(HttpClientRequest.bodyFormData(data))

/** Real time, not the test clock: processing runs on its own fiber and the server is a real one. */
const pause = Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 5)))

/** Reads a document until processing has ended (the way a client polls). */
const settled = (client: HttpClient.HttpClient, ref: string | number) =>
  Effect.gen(function* () {
    for (let attempt = 0; attempt < 400; attempt++) {
      const read = yield* send(client, HttpClientRequest.get(`${documents}/${ref}`))
      expect(read.status).toBe(200)
      const body = read.body as DocumentBody
      if (body.processing_status === "completed" || body.processing_status === "failed") return body
      yield* pause
    }
    return yield* Effect.dieMessage(`document ${ref} never finished processing`)
  })

/** Uploads a file, checks the immediate answer, and waits for processing to end. */
const uploadAndSettle = (
  client: HttpClient.HttpClient,
  file: { readonly name: string; readonly content: string | Uint8Array; readonly type?: string }
) =>
  Effect.gen(function* () {
    const created = yield* send(client, upload(form(file)))
    expect(created.status).toBe(200)
    const body = created.body as DocumentBody
    expect(["pending", "processing"]).toContain(body.processing_status)
    return yield* settled(client, body.id)
  })

const chunkTexts = (client: HttpClient.HttpClient, ref: string | number) =>
  Effect.map(send(client, HttpClientRequest.get(`${documents}/${ref}/chunks`)), (response) => {
    expect(response.status).toBe(200)
    return (response.body as { items: Array<{ text: string }> }).items.map((chunk) => chunk.text)
  })

const locs = (body: unknown) => (body as { detail: Array<Issue> }).detail.map((issue) => issue.loc.join("."))

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

  it.effect("lists documents newest first, paginated; duplicates are separate documents", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const first = yield* uploadAndSettle(client, { name: "a.txt", content: "same bytes" })
      // a second later, so that newest first is an order of time, not of (random) ids
      yield* TestClock.adjust("1 second")
      const second = yield* uploadAndSettle(client, { name: "b.txt", content: "same bytes" })
      expect(second.id).not.toBe(first.id)
      expect(second.file_hash).toBe(first.file_hash)
      const list = yield* send(client, HttpClientRequest.get(documents))
      expect(list.status).toBe(200)
      expect(list.body).toEqual({
        items: [second, first],
        total_count: 2,
        total_pages: 1,
        page: 1,
        limit: 50
      })
      const paged = yield* send(client, HttpClientRequest.get(`${documents}?page=2&limit=1`))
      expect(paged.body).toEqual({ items: [first], total_count: 2, total_pages: 2, page: 2, limit: 1 })
      const bad = yield* send(client, HttpClientRequest.get(`${documents}?page=0&limit=101`))
      expect(bad.status).toBe(422)
      expect(locs(bad.body)).toEqual(expect.arrayContaining(["query.page", "query.limit"]))
    }).pipe(Effect.provide(server))
  )

  it.effect("deletes a document with its chunks: 204, then 404", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const document = yield* uploadAndSettle(client, { name: "a.txt", content: "to be deleted" })
      const deleted = yield* send(client, HttpClientRequest.del(`${documents}/${document.document_uuid}`))
      expect(deleted.status).toBe(204)
      expect(deleted.text).toBe("")
      for (const path of [`${documents}/${document.id}`, `${documents}/${document.id}/chunks`]) {
        const gone = yield* send(client, HttpClientRequest.get(path))
        expect(gone.status).toBe(404)
        expect(gone.body).toEqual({ detail: `Document ${document.id} not found` })
      }
      expect((yield* send(client, HttpClientRequest.del(`${documents}/${document.id}`))).status).toBe(404)
      expect((yield* send(client, HttpClientRequest.get(documents))).body).toMatchObject({ total_count: 0 })
    }).pipe(Effect.provide(server))
  )

  it.effect("searches the organization's completed documents, best first", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const hours = yield* uploadAndSettle(client, {
        name: "hours.md",
        content: "# Hours\n\nWe open on Monday at 8."
      })
      const parking = yield* uploadAndSettle(client, {
        name: "parking.txt",
        content: "Parking is free on Monday."
      })
      yield* uploadAndSettle(client, { name: "other.txt", content: "Nothing relevant here." })
      const found = yield* send(
        client,
        json("POST", "/api/v1/knowledge-base/search", { query: "  parking Monday " })
      )
      expect(found.status).toBe(200)
      const body = found.body as {
        query: string
        results: Array<Record<string, unknown> & { score: number }>
      }
      expect(body.query).toBe("parking Monday")
      expect(
        body.results.map((r) => [r.document_id, r.document_uuid, r.filename, r.chunk_index, r.text])
      ).toEqual([
        [parking.id, parking.document_uuid, "parking.txt", 0, "Parking is free on Monday."],
        [hours.id, hours.document_uuid, "hours.md", 0, "Hours\n\nWe open on Monday at 8."]
      ])
      expect(body.results[0]!.score).toBeGreaterThan(body.results[1]!.score)
      expect(body.results[1]!.score).toBeGreaterThan(0)

      const one = yield* send(
        client,
        json("POST", "/api/v1/knowledge-base/search", { query: "monday", limit: 1 })
      )
      expect((one.body as { results: Array<unknown> }).results).toHaveLength(1)
      const none = yield* send(client, json("POST", "/api/v1/knowledge-base/search", { query: "?!" }))
      expect(none.body).toEqual({ query: "?!", results: [] })

      const invalid = yield* send(
        client,
        json("POST", "/api/v1/knowledge-base/search", { query: "   ", limit: 51, extra: true })
      )
      expect(invalid.status).toBe(422)
      expect(locs(invalid.body)).toEqual(expect.arrayContaining(["body.query", "body.limit", "body.extra"]))
      const zero = yield* send(
        client,
        json("POST", "/api/v1/knowledge-base/search", { query: "x", limit: 0 })
      )
      expect(zero.status).toBe(422)
      expect(locs(zero.body)).toEqual(["body.limit"])
    }).pipe(Effect.provide(server))
  )

  it.effect("shows another organization's document to no one else: 404 by id and by uuid", () =>
    Effect.gen(function* () {
      const owner = yield* organization()
      const stranger = yield* organization()
      const ownerClient = yield* rawClient(owner.apiKey)
      const strangerClient = yield* rawClient(stranger.apiKey)
      const document = yield* uploadAndSettle(ownerClient, {
        name: "secret.txt",
        content: "Secret parking code"
      })
      for (const ref of [String(document.id), document.document_uuid]) {
        for (const request of [
          HttpClientRequest.get(`${documents}/${ref}`),
          HttpClientRequest.get(`${documents}/${ref}/chunks`),
          HttpClientRequest.del(`${documents}/${ref}`)
        ]) {
          const response = yield* send(strangerClient, request)
          expect(response.status).toBe(404)
          expect(response.body).toEqual({ detail: `Document ${ref} not found` })
        }
      }
      expect((yield* send(strangerClient, HttpClientRequest.get(documents))).body).toMatchObject({
        items: [],
        total_count: 0
      })
      const search = yield* send(
        strangerClient,
        json("POST", "/api/v1/knowledge-base/search", { query: "parking" })
      )
      expect(search.body).toEqual({ query: "parking", results: [] })
      // still there for its owner
      expect((yield* send(ownerClient, HttpClientRequest.get(`${documents}/${document.id}`))).status).toBe(
        200
      )

      const unknown = yield* send(ownerClient, HttpClientRequest.get(`${documents}/999999`))
      expect(unknown.status).toBe(404)
      expect(unknown.body).toEqual({ detail: "Document 999999 not found" })
      const noKey = yield* send(yield* rawClient(""), HttpClientRequest.get(`${documents}/${document.id}`))
      expect(noKey.status).toBe(401)
    }).pipe(Effect.provide(server))
  )

  it.effect("answers 422 for a malformed document id", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      for (const ref of ["abc", "0", "-1", "1.5", "0b8f1c2e-1111"]) {
        const response = yield* send(client, HttpClientRequest.get(`${documents}/${ref}`))
        expect(response.status).toBe(422)
        expect(response.body).toEqual({
          detail: [
            {
              loc: ["path", "document_id"],
              msg: "expected the document's number or its document_uuid",
              type: "value_error"
            }
          ]
        })
      }
    }).pipe(Effect.provide(server))
  )

  it.effect(
    "answers 422 for a missing file, bad fields, extra fields and broken forms, 415 for bodies that are not a form",
    () =>
      Effect.gen(function* () {
        const { apiKey } = yield* organization()
        const client = yield* rawClient(apiKey)
        const problems = (data: FormData) =>
          Effect.map(send(client, upload(data)), (response) => {
            expect(response.status).toBe(422)
            return (response.body as { detail: Array<Issue> }).detail
          })

        expect(yield* problems(form(null, { custom_metadata: "{}" }))).toEqual([
          { loc: ["body", "file"], msg: "Field required", type: "missing" }
        ])
        // text no database can store: NUL in the metadata (escaped in its JSON); a NUL in the file name does not
        // even parse as a form
        expect(
          yield* problems(form({ name: "a.txt", content: "a" }, { custom_metadata: '{"a": "\\u0000"}' }))
        ).toEqual([{ loc: ["body", "custom_metadata"], msg: StorableText.message, type: "value_error" }])
        expect((yield* problems(form({ name: "a\u0000.txt", content: "a" })))[0]?.type).toBe(
          "value_error.multipart"
        )
        expect(yield* problems(form(null, { file: "just text" }))).toEqual([
          {
            loc: ["body", "file"],
            msg: "Expected an uploaded file, not a text field",
            type: "value_error.file"
          }
        ])
        const twoFiles = form({ name: "a.txt", content: "a" })
        twoFiles.append("file", new Blob(["b"]), "b.txt")
        expect(yield* problems(twoFiles)).toEqual([
          { loc: ["body", "file"], msg: "Expected exactly one file", type: "value_error.file" }
        ])
        expect(
          yield* problems(
            form(
              { name: "a.txt", content: "a" },
              { custom_metadata: "[1, 2]", source_url: "ftp://example.com/x", title: "extra" }
            )
          )
        ).toEqual([
          { loc: ["body", "title"], msg: "Extra inputs are not permitted", type: "extra_forbidden" },
          {
            loc: ["body", "custom_metadata"],
            msg: "Expected a JSON object, as text",
            type: "value_error.json"
          },
          {
            loc: ["body", "source_url"],
            msg: "Expected an absolute http(s) URL of at most 2048 characters",
            type: "value_error.url"
          }
        ])
        expect(
          (yield* problems(form({ name: "a.txt", content: "a" }, { custom_metadata: "{not json" })))[0]
        ).toMatchObject({
          loc: ["body", "custom_metadata"]
        })

        // blank text inputs count as absent
        const blank = yield* send(
          client,
          upload(form({ name: "a.txt", content: "a" }, { custom_metadata: "", source_url: "" }))
        )
        expect(blank.status).toBe(200)
        expect(blank.body).toMatchObject({ custom_metadata: {}, source_url: null })

        // a body that is not a form, or none at all, is refused at the edge before it is read
        const asJson = yield* send(client, json("POST", documents, { file: "hello" }))
        expect(asJson.status).toBe(415)
        expect(asJson.body).toEqual({
          detail: "This operation takes multipart/form-data, not application/json"
        })
        const empty = yield* send(client, HttpClientRequest.post(documents))
        expect(empty.status).toBe(415)
        const broken = yield* send(
          client,
          HttpClientRequest.post(documents).pipe(
            HttpClientRequest.bodyText("--xyz\r\nnot a real form", "multipart/form-data; boundary=xyz")
          )
        )
        expect(broken.status).toBe(422)
        expect(locs(broken.body)).toEqual(["body"])

        expect((yield* send(client, HttpClientRequest.get(documents))).body).toMatchObject({ total_count: 1 })
      }).pipe(Effect.provide(server))
  )

  it.effect("refuses a file over 10 MiB with 422 and stores nothing", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const limit = 10 * 1024 * 1024
      const tooLarge = (size: number) =>
        Effect.map(
          send(client, upload(form({ name: "big.txt", content: new Uint8Array(size).fill(0x61) }))),
          (r) => {
            expect(r.status).toBe(422)
            const [issue, ...rest] = (r.body as { detail: Array<Issue> }).detail
            expect(rest).toEqual([])
            expect(issue).toMatchObject({ loc: ["body", "file"], type: "value_error.file_too_large" })
            return issue!.msg
          }
        )
      // just over: the knowledge base's own check, which knows the size
      expect(yield* tooLarge(limit + 1)).toBe(
        `file_too_large: the file (${limit + 1} bytes) is over the limit of ${limit} bytes`
      )
      // far over: the form reader stops reading without buffering the rest
      expect(yield* tooLarge(limit + 1024 * 1024)).toBe(
        `file_too_large: the file is over the limit of ${limit} bytes`
      )
      expect((yield* send(client, HttpClientRequest.get(documents))).body).toMatchObject({ total_count: 0 })
      const atLimit = yield* send(
        client,
        upload(form({ name: "edge.txt", content: new Uint8Array(limit).fill(0x61) }))
      )
      expect(atLimit.status).toBe(200)
      expect(atLimit.body).toMatchObject({ file_size_bytes: limit })
    }).pipe(Effect.provide(server))
  )
})
