/** Raw requests and memory measurement for the request-edge tests. */
import type { RawBody } from "./RawHttp.js"
import { exchange } from "./RawHttp.js"

export const MB = 1024 * 1024

export const head = (method: string, target: string, headers: Record<string, string | number>) =>
  [
    `${method} ${target} HTTP/1.1`,
    "Host: 127.0.0.1",
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)
  ].join("\r\n")

export const send = (
  server: number,
  method: string,
  target: string,
  headers: Record<string, string | number>,
  body?: RawBody
) => {
  const sized =
    body === undefined
      ? headers
      : body instanceof Uint8Array
        ? { ...headers, "Content-Length": body.length }
        : body.chunked
          ? { ...headers, "Transfer-Encoding": "chunked" }
          : { ...headers, "Content-Length": body.totalBytes }
  return exchange(server, head(method, target, sized), body)
}

export const text = (value: string) => new TextEncoder().encode(value)
