import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

/** One span as an OTLP/HTTP JSON export carries it, with its attributes flattened. */
export interface ReceivedSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId: string | undefined
  readonly name: string
  readonly kind: number
  readonly attributes: Readonly<Record<string, unknown>>
  readonly serviceName: unknown
}

interface AnyValue {
  readonly stringValue?: string
  readonly intValue?: string | number
  readonly doubleValue?: number
  readonly boolValue?: boolean
}

const valueOf = (value: AnyValue): unknown =>
  value.stringValue ??
  (value.intValue !== undefined ? Number(value.intValue) : undefined) ??
  value.doubleValue ??
  value.boolValue

const flatten = (attributes: ReadonlyArray<{ key: string; value: AnyValue }> | undefined) =>
  Object.fromEntries((attributes ?? []).map(({ key, value }) => [key, valueOf(value)]))

/**
 * A local OTLP/HTTP receiver on 127.0.0.1 taking `POST /v1/traces` as JSON: it keeps every span and
 * every raw body it was sent (to check nothing secret went out). Close it when done.
 */
export const start = async () => {
  const spans: Array<ReceivedSpan> = []
  const bodies: Array<string> = []
  const server = createServer((request, response) => {
    let body = ""
    request.setEncoding("utf8")
    request.on("data", (chunk: string) => (body += chunk))
    request.on("end", () => {
      if (request.method !== "POST" || request.url !== "/v1/traces") {
        response.writeHead(404).end()
        return
      }
      bodies.push(body)
      const exported = JSON.parse(body) as {
        resourceSpans: Array<{
          resource: { attributes: Array<{ key: string; value: AnyValue }> }
          scopeSpans: Array<{ spans: Array<any> }>
        }>
      }
      for (const resourceSpan of exported.resourceSpans) {
        const serviceName = flatten(resourceSpan.resource.attributes)["service.name"]
        for (const scope of resourceSpan.scopeSpans) {
          for (const span of scope.spans) {
            spans.push({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId === "" ? undefined : span.parentSpanId,
              name: span.name,
              kind: span.kind,
              attributes: flatten(span.attributes),
              serviceName
            })
          }
        }
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    bodies,
    /** Waits (at most `timeoutMs`) until a received span satisfies `found`. */
    waitFor: async (found: (span: ReceivedSpan) => boolean, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs
      while (!spans.some(found)) {
        if (Date.now() > deadline) {
          throw new Error(
            `no such span in ${spans.length} received: ${[...new Set(spans.map((s) => s.name))].join(", ")}`
          )
        }
        await new Promise((r) => setTimeout(r, 50))
      }
      return spans.find(found)!
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
