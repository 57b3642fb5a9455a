/** The knowledge base over HTTP: listing, deleting and searching documents, each only its organization's. */
import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"
import { documents, uploadAndSettle, locs } from "../support/KnowledgeBaseFixtures.js"

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("knowledge base over HTTP, %s storage", (_, server) => {
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
})
