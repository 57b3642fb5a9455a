/** Fuzz requests: one case per operation from its schemas, sent over a raw socket and checked. */
import { Effect } from "effect"
import type { RawBody } from "./RawHttp.js"
import { exchange, NoAnswer } from "./RawHttp.js"
import { adminToken, runtimeToken } from "./TestServer.js"
import {
  type Random,
  type Parameter,
  type Operation,
  type Document,
  valueOf,
  oddValues,
  mutate
} from "./FuzzValues.js"

/** Longer than any answer takes on a loaded machine; an answer slower than this is a hang. */
export const answerTimeoutMs = 15_000

/** Percent-encodes UTF-8 bytes (a lone surrogate becomes U+FFFD, where `encodeURIComponent` throws). */
export const percentEncoded = (value: string) =>
  Array.from(Buffer.from(value, "utf8"), (byte) =>
    /[A-Za-z0-9_.~-]/.test(String.fromCharCode(byte))
      ? String.fromCharCode(byte)
      : `%${byte.toString(16).padStart(2, "0")}`
  ).join("")

export const segmentOf = (document: Document, parameter: Parameter, rng: Random): string => {
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

export const oddMediaTypes = [
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

export const text = (value: string) => new TextEncoder().encode(value)

/** A multipart body: a valid form for the document's fields, or one broken in a way parsers trip over. */
export const multipartBody = (rng: Random): { contentType: string; body: RawBody } => {
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

export type Case = { method: string; target: string; headers: Record<string, string>; body: RawBody }

/** One request for `operation`: values from its schemas, then mutated. */
export const caseFor = (
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

export const credentialsFor = (path: string, apiKey: string): Record<string, string> =>
  path.startsWith("/admin/")
    ? { Authorization: `Bearer ${adminToken}` }
    : path.startsWith("/runtime/")
      ? { Authorization: `Bearer ${runtimeToken}` }
      : { "X-API-Key": apiKey }

/** Sends one case as written: chunked or with its length; answers what was wrong with the answer, if anything. */
export const check = async (server: number, c: Case, chunked: boolean): Promise<string | undefined> => {
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

export const openApi = (server: number) =>
  Effect.promise(() =>
    exchange(server, "GET /api/v1/public-openapi.json HTTP/1.1\r\nHost: 127.0.0.1", undefined)
  ).pipe(Effect.map((answer) => answer.body as Document))
