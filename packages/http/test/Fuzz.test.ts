import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { RawBody } from "./support/RawHttp.js"
import { exchange, NoAnswer, port } from "./support/RawHttp.js"
import {
  adminToken,
  organization,
  runtimeToken,
  TestServer,
  TestServerOverSql
} from "./support/TestServer.js"

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
/** Longer than any answer takes on a loaded machine; an answer slower than this is a hang. */
const answerTimeoutMs = 15_000

/** A small seeded generator (mulberry32): the same seed gives the same requests. */
const random = (start: number) => {
  let state = start >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1))
  const pick = <A>(items: ReadonlyArray<A>): A => items[int(0, items.length - 1)]!
  const chance = (p: number) => next() < p
  return { next, int, pick, chance }
}
type Random = ReturnType<typeof random>

type Schema = {
  $ref?: string
  type?: string | Array<string>
  enum?: Array<unknown>
  const?: unknown
  format?: string
  properties?: Record<string, Schema>
  required?: Array<string>
  additionalProperties?: boolean | Schema
  items?: Schema
  anyOf?: Array<Schema>
  oneOf?: Array<Schema>
  allOf?: Array<Schema>
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  minItems?: number
  maxItems?: number
  nullable?: boolean
}
type Parameter = { name: string; in: "path" | "query" | "header"; schema?: Schema; required?: boolean }
type Operation = {
  method: string
  path: string
  parameters: ReadonlyArray<Parameter>
  body: { mediaType: string; schema: Schema } | undefined
}
type Document = {
  paths: Record<
    string,
    Record<
      string,
      { parameters?: Array<Parameter>; requestBody?: { content: Record<string, { schema: Schema }> } }
    >
  >
  components: { schemas: Record<string, Schema> }
}

// Routes whose answers are not JSON by design.
const notJson = new Set(["/api/v1/public-docs", "/api/v1/public-openapi.json"])

const operationsOf = (document: Document): Array<Operation> =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
      .map(([method, operation]) => {
        const [mediaType, content] = Object.entries(operation.requestBody?.content ?? {})[0] ?? []
        return {
          method: method.toUpperCase(),
          path,
          parameters: operation.parameters ?? [],
          body: mediaType === undefined ? undefined : { mediaType, schema: content!.schema }
        }
      })
  )

/** A value the schema describes (or nearly: the generator is not a validator), `depth` bounding recursion. */
const valueOf = (document: Document, schema: Schema | undefined, rng: Random, depth = 0): unknown => {
  if (schema === undefined || depth > 6) return null
  if (schema.$ref !== undefined)
    return valueOf(document, document.components.schemas[schema.$ref.split("/").pop()!], rng, depth + 1)
  if (schema.const !== undefined) return schema.const
  if (schema.enum !== undefined) return rng.pick(schema.enum)
  const alternatives = schema.anyOf ?? schema.oneOf
  if (alternatives !== undefined) return valueOf(document, rng.pick(alternatives), rng, depth + 1)
  if (schema.allOf !== undefined)
    return Object.assign({}, ...schema.allOf.map((part) => valueOf(document, part, rng, depth + 1)))
  const type = Array.isArray(schema.type) ? rng.pick(schema.type) : schema.type
  switch (type) {
    case "string":
      if (schema.format === "date-time")
        return new Date(Date.UTC(2026, rng.int(0, 11), rng.int(1, 28))).toISOString()
      if (schema.format === "uuid") return "00000000-0000-4000-8000-00000000000" + rng.int(0, 9)
      return rng.pick([
        "x",
        "Clinic",
        "+48500100200",
        "agent_AAAAAAAAAAAAAAAAAAAA",
        "hello world",
        "a".repeat(schema.minLength ?? 1)
      ])
    case "integer":
      return rng.int(schema.minimum ?? 0, Math.min(schema.maximum ?? 1000, 1_000_000))
    case "number":
      return rng.int(schema.minimum ?? 0, Math.min(schema.maximum ?? 1000, 1_000_000)) + rng.pick([0, 0.5])
    case "boolean":
      return rng.chance(0.5)
    case "array":
      return Array.from({ length: rng.int(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3)) }, () =>
        valueOf(document, schema.items, rng, depth + 1)
      )
    case "null":
      return null
    default: {
      const value: Record<string, unknown> = {}
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        if (schema.required?.includes(key) || rng.chance(0.5))
          value[key] = valueOf(document, property, rng, depth + 1)
      }
      return value
    }
  }
}

/** Values no schema expects, in every part of a request. */
const oddValues: ReadonlyArray<unknown> = [
  null,
  "",
  -1,
  0,
  1e308,
  99999999999999999999,
  "x".repeat(5000),
  "\u0000",
  "\ud800",
  "😀",
  [],
  {},
  [[[[]]]],
  true,
  "2026-13-45T25:61:00Z"
]

/** A JSON value changed the ways clients get it wrong: a field dropped, added, of another type. */
const mutate = (value: unknown, rng: Random, depth = 0): unknown => {
  if (depth > 4 || rng.chance(0.3)) return rng.pick(oddValues)
  if (Array.isArray(value))
    return value.length === 0 ? [rng.pick(oddValues)] : value.map((item) => mutate(item, rng, depth + 1))
  if (typeof value === "object" && value !== null) {
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) }
    const keys = Object.keys(copy)
    if (keys.length > 0 && rng.chance(0.3)) delete copy[rng.pick(keys)]
    if (rng.chance(0.3)) copy[rng.pick(["extra", "__proto__", "constructor", ""])] = rng.pick(oddValues)
    if (keys.length > 0) copy[rng.pick(keys)] = mutate(copy[rng.pick(keys)], rng, depth + 1)
    return copy
  }
  return rng.pick(oddValues)
}

/** Percent-encodes UTF-8 bytes (a lone surrogate becomes U+FFFD, where `encodeURIComponent` throws). */
const percentEncoded = (value: string) =>
  Array.from(Buffer.from(value, "utf8"), (byte) =>
    /[A-Za-z0-9_.~-]/.test(String.fromCharCode(byte))
      ? String.fromCharCode(byte)
      : `%${byte.toString(16).padStart(2, "0")}`
  ).join("")

const segmentOf = (document: Document, parameter: Parameter, rng: Random): string => {
  if (rng.chance(0.35)) {
    // raw: dot segments and characters a URL parser would rewrite
    return rng.pick([
      ".",
      "..",
      "%2e",
      "%2E",
      "%2e%2e",
      ".%2e",
      "%00",
      "%",
      "%zz",
      "%C0%AE",
      "~",
      "a;b",
      "a%2Fb",
      "%20"
    ])
  }
  const value = rng.chance(0.7) ? valueOf(document, parameter.schema, rng) : rng.pick(oddValues)
  return percentEncoded(typeof value === "string" ? value : JSON.stringify(value))
}

const oddMediaTypes = [
  "application/octet-stream",
  "application/xml",
  "audio/wav",
  "audio/mpeg",
  "image/png",
  "text/plain",
  "*/*",
  "json",
  "application/x-www-form-urlencoded",
  "multipart/mixed; boundary=b",
  "multipart/form-data; boundary=b",
  "multipart/form-data",
  "application/json; charset=utf-16",
  "application/vnd.api+json",
  "application/problem+xml",
  ""
]

const text = (value: string) => new TextEncoder().encode(value)

/** A multipart body: a valid form for the document's fields, or one broken in a way parsers trip over. */
const multipartBody = (rng: Random): { contentType: string; body: RawBody } => {
  const boundary = rng.pick(["b", "----x", "a".repeat(70)])
  const part = (name: string, value: string, filename?: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename === undefined ? "" : `; filename="${filename}"`}\r\n` +
    `${filename === undefined ? "" : "Content-Type: text/plain\r\n"}\r\n${value}\r\n`
  const valid =
    part("file", "hello, knowledge base", "notes.txt") +
    part("custom_metadata", '{"a":1}') +
    `--${boundary}--\r\n`
  const contentType = `multipart/form-data; boundary=${boundary}`
  switch (rng.int(0, 8)) {
    case 0:
      return { contentType, body: text(valid) }
    case 1:
      return { contentType: "multipart/form-data", body: text(valid) }
    case 2:
      return {
        contentType: `multipart/form-data; boundary=${"z".repeat(rng.int(71, 200))}`,
        body: text(valid)
      }
    case 3:
      return { contentType, body: text(valid.slice(0, rng.int(0, valid.length - 1))) }
    case 4:
      return {
        contentType,
        body: text(
          Array.from({ length: rng.int(9, 300) }, (_, i) => part(`f${i}`, "v")).join("") +
            `--${boundary}--\r\n`
        )
      }
    case 5:
      return { contentType: "multipart/form-data; boundary=other", body: text(valid) }
    case 6:
      return { contentType, body: text(part("file", "x", "a.txt")) }
    case 7:
      return { contentType: `multipart/form-data; boundary="${boundary}"; charset=x; =`, body: text(valid) }
    default:
      return {
        contentType,
        body: {
          totalBytes: rng.int(1, 13) * 1024 * 1024,
          chunked: rng.chance(0.5),
          prefix: text(part("file", "", "big.txt").slice(0, -2))
        }
      }
  }
}

type Case = { method: string; target: string; headers: Record<string, string>; body: RawBody }

/** One request for `operation`: values from its schemas, then mutated. */
const caseFor = (
  document: Document,
  operation: Operation,
  credentials: Record<string, string>,
  rng: Random
): Case => {
  let target = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    segmentOf(document, operation.parameters.find((p) => p.name === name) ?? { name, in: "path" }, rng)
  )
  const query = new URLSearchParams()
  for (const parameter of operation.parameters.filter((p) => p.in === "query")) {
    if (!rng.chance(0.5)) continue
    const value = rng.chance(0.7) ? valueOf(document, parameter.schema, rng) : rng.pick(oddValues)
    query.append(parameter.name, typeof value === "string" ? value : JSON.stringify(value))
  }
  if (rng.chance(0.1)) query.append(rng.pick(["page", "limit", "x"]), rng.pick(["1", "0", "abc", ""]))
  const search = query.toString()
  if (search !== "") target += `?${search}`
  if (rng.chance(0.1)) {
    // a raw # somewhere in the target
    const at = rng.int(1, target.length)
    target = `${target.slice(0, at)}#${rng.pick(["", "x", "?limit=abc", "&page=0"])}${target.slice(at)}`
  }
  const headers: Record<string, string> = rng.chance(0.9)
    ? { ...credentials }
    : rng.chance(0.5)
      ? {}
      : { "X-API-Key": "vap_wrong", Authorization: "Bearer wrong" }
  for (const parameter of operation.parameters.filter((p) => p.in === "header")) {
    if (rng.chance(0.5)) {
      const value = rng.chance(0.8)
        ? valueOf(document, parameter.schema, rng)
        : rng.pick(["", " ", "x".repeat(300), "é"])
      headers[parameter.name] = String(value).replace(/[\r\n]/g, "")
    }
  }
  let body: RawBody = undefined
  if (operation.method !== "GET" && (operation.body !== undefined || rng.chance(0.3))) {
    const declared = operation.body?.mediaType ?? "application/json"
    if (declared === "multipart/form-data" && rng.chance(0.8)) {
      const form = multipartBody(rng)
      headers["Content-Type"] = form.contentType
      body = form.body
    } else {
      headers["Content-Type"] = rng.chance(0.7) ? declared : rng.pick(oddMediaTypes)
      if (headers["Content-Type"] === "") delete headers["Content-Type"]
      const shape = rng.int(0, 19)
      if (shape === 0)
        body = {
          totalBytes: rng.int(1, 3) * 1024 * 1024 + 1,
          chunked: rng.chance(0.5),
          prefix: text('{"a":"')
        }
      else if (shape === 1) body = text("[".repeat(rng.int(65, 20_000)))
      else if (shape === 2) body = text(rng.pick(["", "{", "nul\u0000l", '{"a":"\\ud800"}', "\xff\xfe"]))
      else if (shape === 3) body = Uint8Array.from({ length: rng.int(1, 500) }, () => rng.int(0, 255))
      else {
        const value = valueOf(document, operation.body?.schema, rng)
        body = text(JSON.stringify(rng.chance(0.6) ? mutate(value, rng) : value) ?? "null")
      }
    }
  }
  return { method: operation.method, target, headers, body }
}

const credentialsFor = (path: string, apiKey: string): Record<string, string> =>
  path.startsWith("/admin/")
    ? { Authorization: `Bearer ${adminToken}` }
    : path.startsWith("/runtime/")
      ? { Authorization: `Bearer ${runtimeToken}` }
      : { "X-API-Key": apiKey }

/** Sends one case as written: chunked or with its length; answers what was wrong with the answer, if anything. */
const check = async (server: number, c: Case, chunked: boolean): Promise<string | undefined> => {
  const headers = { ...c.headers }
  let body = c.body
  if (body instanceof Uint8Array && chunked) body = { totalBytes: body.length, chunked: true, prefix: body }
  if (body instanceof Uint8Array) headers["Content-Length"] = String(body.length)
  else if (body !== undefined) {
    if (body.chunked) headers["Transfer-Encoding"] = "chunked"
    else headers["Content-Length"] = String(body.totalBytes)
  }
  const head = [
    `${c.method} ${c.target} HTTP/1.1`,
    "Host: 127.0.0.1",
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)
  ].join("\r\n")
  const bodyShown =
    c.body === undefined
      ? "no body"
      : c.body instanceof Uint8Array
        ? `${c.body.length} bytes ${JSON.stringify(Buffer.from(c.body.subarray(0, 120)).toString("latin1"))}`
        : `${c.body.totalBytes} generated bytes${c.body.chunked ? ", chunked" : ""}`
  const described = `${c.method} ${c.target.slice(0, 200)} ${JSON.stringify(c.headers).slice(0, 200)} ${chunked ? "chunked " : ""}${bodyShown}`
  try {
    const answer = await exchange(server, head, body, answerTimeoutMs)
    if (answer.status >= 500) return `${answer.status}: ${described} → ${answer.text.slice(0, 200)}`
    if (
      answer.status >= 400 &&
      (answer.body === null || typeof answer.body !== "object" || !("detail" in answer.body))
    )
      return `non-JSON ${answer.status}: ${described} → ${answer.text.slice(0, 200)}`
    return undefined
  } catch (error) {
    return error instanceof NoAnswer
      ? `no answer (${error.reason}): ${described}`
      : `client error ${String(error)}: ${described}`
  }
}

const openApi = (server: number) =>
  Effect.promise(() =>
    exchange(server, "GET /api/v1/public-openapi.json HTTP/1.1\r\nHost: 127.0.0.1", undefined)
  ).pipe(Effect.map((answer) => answer.body as Document))

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
