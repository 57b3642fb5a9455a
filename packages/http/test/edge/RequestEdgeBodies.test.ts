/** The request edge: body limits while a body streams, and multipart only where documented. */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { maxJsonBytes } from "@voice-agent-platform/contract/middleware/BodyLimits.js"
import { maxUploadBytes } from "@voice-agent-platform/contract/knowledge-base/KnowledgeBaseApi.js"
import { maxRecordingBytes } from "@voice-agent-platform/contract/runtime/RuntimeApi.js"
import type { RawBody } from "../support/RawHttp.js"
import { port } from "../support/RawHttp.js"
import { createAgent, storeRun } from "../support/RunFixtures.js"
import { organization, rawClient, runtimeToken, TestServer } from "../support/TestServer.js"
import { MB, send, text } from "../support/RequestEdgeFixtures.js"

describe("the request edge", () => {
  it.effect(
    "every body has a limit enforced while it streams: 413 as soon as it is crossed, chunked or not",
    () =>
      Effect.gen(function* () {
        const server = yield* port
        const { apiKey } = yield* organization()
        for (const chunked of [true, false]) {
          const json = yield* Effect.promise(() =>
            send(
              server,
              "POST",
              "/api/v1/agents/from-script",
              { "X-API-Key": apiKey, "Content-Type": "application/json" },
              { totalBytes: 30 * MB, chunked }
            )
          )
          expect(json.status).toBe(413)
          expect(json.body).toEqual({ detail: `The body must be at most ${maxJsonBytes} bytes` })
          expect(json.bytesSentBeforeAnswer).toBeLessThan(30 * MB)
        }
        // the recording upload of a real run: 200 MB, then 413 while it streams (it was a 422)
        const owner = yield* organization()
        const agent = yield* createAgent(yield* rawClient(owner.apiKey))
        const run = yield* storeRun(owner.organization, agent.id)
        const recording = yield* Effect.promise(() =>
          send(
            server,
            "PUT",
            `/runtime/v1/runs/${run.workflow_run_id}/recording`,
            { Authorization: `Bearer ${runtimeToken}`, "Content-Type": "audio/wav" },
            { totalBytes: maxRecordingBytes + 20 * MB, chunked: true }
          )
        )
        expect(recording.status).toBe(413)
        expect(recording.body).toEqual({ detail: `The body must be at most ${maxRecordingBytes} bytes` })
        expect(recording.bytesSentBeforeAnswer).toBeLessThan(maxRecordingBytes + 20 * MB)
        const form = yield* Effect.promise(() =>
          send(
            server,
            "POST",
            "/api/v1/knowledge-base/documents",
            { "X-API-Key": apiKey, "Content-Type": "multipart/form-data; boundary=b" },
            { totalBytes: maxUploadBytes + MB, chunked: true }
          )
        )
        expect(form.status).toBeGreaterThanOrEqual(400)
        expect(form.status).toBeLessThan(500)
      }).pipe(Effect.provide(TestServer))
  )

  it.effect(
    "point 4: multipart only where documented; a malformed form is a 4xx in the documented shape, no temp files",
    () =>
      Effect.gen(function* () {
        const server = yield* port
        const { apiKey } = yield* organization()
        const scratch = mkdtempSync(join(tmpdir(), "edge-multipart-"))
        const previous = process.env.TMPDIR
        process.env.TMPDIR = scratch
        try {
          const form = text(
            '--b\r\nContent-Disposition: form-data; name="file"; filename="x.txt"\r\nContent-Type: text/plain\r\n\r\n' +
              "x".repeat(200_000) +
              "\r\n--b--\r\n"
          )
          for (const target of [
            "/api/v1/agents/from-script",
            "/api/v1/tools",
            "/api/v1/knowledge-base/search"
          ]) {
            const refused = yield* Effect.promise(() =>
              send(
                server,
                "POST",
                target,
                { "X-API-Key": apiKey, "Content-Type": "multipart/form-data; boundary=b" },
                form
              )
            )
            expect(refused.status, target).toBe(415)
            expect(refused.body, target).toEqual({
              detail:
                "This operation takes application/json (or application/<type>+json), not multipart/form-data"
            })
          }
          const upload = (contentType: string, body: RawBody) =>
            Effect.promise(() =>
              send(
                server,
                "POST",
                "/api/v1/knowledge-base/documents",
                { "X-API-Key": apiKey, "Content-Type": contentType },
                body
              )
            )
          const json = yield* upload("application/json", text('{"file": "x"}'))
          expect(json.status).toBe(415)
          expect(json.body).toEqual({
            detail: "This operation takes multipart/form-data, not application/json"
          })
          const part = (name: string, value: string) =>
            `--b\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
          const malformed: Array<[string, string, RawBody]> = [
            ["no boundary", "multipart/form-data", form],
            ["empty boundary", "multipart/form-data; boundary=", form],
            ["boundary over 70 characters", `multipart/form-data; boundary=${"b".repeat(80)}`, form],
            ["another boundary", "multipart/form-data; boundary=other", form],
            ["truncated", "multipart/form-data; boundary=b", form.subarray(0, 1000)],
            [
              "stops inside the closing boundary",
              "multipart/form-data; boundary=b",
              form.subarray(0, form.length - 5)
            ],
            [
              "stops after the closing boundary's name",
              "multipart/form-data; boundary=b",
              form.subarray(0, form.length - 4)
            ],
            ["garbage", "multipart/form-data; boundary=b", text("not a form at all")],
            ["ends between parts", "multipart/form-data; boundary=b", text(part("custom_metadata", "{}"))],
            ["unreadable parameters", "multipart/form-data; boundary=b; =x", form],
            ["empty", "multipart/form-data; boundary=b", new Uint8Array()],
            [
              "many parts",
              "multipart/form-data; boundary=b",
              text(Array.from({ length: 50 }, (_, i) => part(`f${i}`, "v")).join("") + "--b--\r\n")
            ]
          ]
          for (const [name, contentType, body] of malformed) {
            const answer = yield* upload(contentType, body)
            expect(answer.status, name).toBe(422)
            expect(Array.isArray((answer.body as { detail: unknown }).detail), name).toBe(true)
            expect(answer.text, name).not.toContain(scratch)
            expect(answer.text, name).not.toContain(tmpdir())
          }
          // the form as a whole has a limit too: many text fields, each under its own
          const fields = text(
            Array.from({ length: 7 }, (_, i) => part(`f${i}`, "v".repeat(60 * 1024))).join("") + "--b--\r\n"
          )
          expect(fields.length).toBeLessThan(maxUploadBytes)
          const over = yield* upload("multipart/form-data; boundary=b", {
            totalBytes: maxUploadBytes + MB,
            chunked: true,
            prefix: text(
              part("custom_metadata", "{}") +
                '--b\r\nContent-Disposition: form-data; name="source_url"\r\n\r\n'
            )
          })
          expect(over.status).toBe(422)
          expect(over.body).toMatchObject({
            detail: [{ loc: ["body"], type: "value_error.field_too_large" }]
          })
          expect(readdirSync(scratch)).toEqual([])
        } finally {
          if (previous === undefined) delete process.env.TMPDIR
          else process.env.TMPDIR = previous
          rmSync(scratch, { recursive: true, force: true })
        }
      }).pipe(Effect.provide(TestServer))
  )
})
