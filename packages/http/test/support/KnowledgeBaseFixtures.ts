/** The knowledge-base tests' forms, uploads and polling. */
import type { HttpClient } from "@effect/platform"
import { HttpClientRequest } from "@effect/platform"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { send } from "./TestServer.js"

export const documents = "/api/v1/knowledge-base/documents"

export type DocumentBody = {
  id: number
  document_uuid: string
  processing_status: string
  total_chunks: number
  processing_error: string | null
  [key: string]: unknown
}

export type Issue = { loc: Array<string | number>; msg: string; type: string }

/** A form with the document in `file`, and any other parts given. */
export const form = (
  file: { readonly name: string; readonly content: string | Uint8Array; readonly type?: string } | null,
  fields: Record<string, string> = {}
) => {
  const data = new FormData()
  if (file !== null) data.append("file", new Blob([file.content], { type: file.type ?? "" }), file.name)
  for (const [key, value] of Object.entries(fields)) data.append(key, value)
  return data
}

export const upload = (data: FormData) =>
  HttpClientRequest.post(documents).pipe(HttpClientRequest.bodyFormData(data))

/** Real time, not the test clock: processing runs on its own fiber and the server is a real one. */
export const pause = Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 5)))

/** Reads a document until processing has ended (the way a client polls). */
export const settled = (client: HttpClient.HttpClient, ref: string | number) =>
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
export const uploadAndSettle = (
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

export const locs = (body: unknown) =>
  (body as { detail: Array<Issue> }).detail.map((issue) => issue.loc.join("."))
