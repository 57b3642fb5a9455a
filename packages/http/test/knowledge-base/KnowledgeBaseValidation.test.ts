/** The knowledge base over HTTP: malformed ids, forms and oversized files. */
import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"
import * as StorableText from "@voice-agent-platform/contract/middleware/StorableText.js"
import { documents, type Issue, form, upload, locs } from "../support/KnowledgeBaseFixtures.js"

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("knowledge base over HTTP, %s storage", (_, server) => {
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
