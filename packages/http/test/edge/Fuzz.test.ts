import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { exchange, port } from "../support/RawHttp.js"
import { organization, TestServer, TestServerOverSql } from "../support/TestServer.js"
import { random, notJson, operationsOf } from "../support/FuzzValues.js"
import { answerTimeoutMs, caseFor, credentialsFor, check, openApi } from "../support/FuzzRequests.js"

/**
 * Robustness: a seeded generator driven by the OpenAPI document. Every operation gets requests whose
 * path, query, header and body values are built from the document's schemas and then mutated, sent over
 * a raw socket (so nothing normalises them): odd media types, malformed multipart, dot segments, a raw
 * `#` in the target, bodies over the limits, chunked bodies, wrong credentials. No answer may be a 5xx, an
 * error that is not JSON with `detail`, or missing (a hang).
 *
 * `FUZZ_CASES` (cases per operation, default 40) raises the count; `FUZZ_SEED` replays a run (the seed is
 * printed with every failure).
 */

const casesPerOperation = Number(process.env.FUZZ_CASES ?? "40")

const seed = Number(process.env.FUZZ_SEED ?? "20261123")

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("robustness, %s storage", (storage, server) => {
  it.effect(
    "no operation answers 5xx, a non-JSON error, or nothing, to generated and mutated requests",
    () =>
      Effect.gen(function* () {
        const address = yield* port
        const document = yield* openApi(address)
        const operations = operationsOf(document).filter((op) => !notJson.has(op.path))
        expect(operations.length).toBeGreaterThan(70)
        const { apiKey } = yield* organization()
        const failures: Array<string> = []
        let sent = 0
        for (const [index, operation] of operations.entries()) {
          const rng = random(seed + index)
          for (let i = 0; i < casesPerOperation; i++) {
            const c = caseFor(document, operation, credentialsFor(operation.path, apiKey), rng)
            const failure = yield* Effect.promise(() => check(address, c, rng.chance(0.2)))
            sent++
            if (failure !== undefined) failures.push(failure)
          }
        }
        if (failures.length > 0)
          console.error(
            `Fuzz (${storage}): ${failures.length} of ${sent} failed; replay with FUZZ_SEED=${seed} FUZZ_CASES=${casesPerOperation}`
          )
        expect(failures).toEqual([])
      }).pipe(Effect.provide(server)),
    { timeout: 240_000 }
  )
})

describe("robustness: header blocks over 16 KiB", () => {
  it.effect("are answered 431 with a JSON body, on every operation", () =>
    Effect.gen(function* () {
      const address = yield* port
      const document = yield* openApi(address)
      const operations = operationsOf(document).filter((op) => !notJson.has(op.path))
      const { apiKey } = yield* organization()
      const rng = random(seed)
      const failures: Array<string> = []
      for (const operation of operations) {
        const c = caseFor(document, operation, credentialsFor(operation.path, apiKey), rng)
        const padding = Array.from({ length: rng.int(2, 8) }, (_, i) => [
          `X-Padding-${i}`,
          "p".repeat(rng.int(3000, 9000))
        ])
        const headers = { ...c.headers, ...Object.fromEntries(padding) }
        const head = [
          `${c.method} ${c.target} HTTP/1.1`,
          "Host: 127.0.0.1",
          ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)
        ].join("\r\n")
        if (head.length <= 16 * 1024) continue
        const answer = yield* Effect.promise(() =>
          exchange(address, head, undefined, answerTimeoutMs).catch((error: unknown) => String(error))
        )
        if (typeof answer === "string") failures.push(`${c.method} ${c.target}: ${answer}`)
        else if (answer.status !== 431 || typeof answer.body !== "object" || answer.body === null)
          failures.push(`${c.method} ${c.target}: ${answer.status} ${answer.text.slice(0, 100)}`)
      }
      expect(failures).toEqual([])
    }).pipe(Effect.provide(TestServer))
  )
})
