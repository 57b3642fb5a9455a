/** One HTTP request over loopback with a deadline, its answer (or timeout/error), and percentiles of latencies. */
import { Agent, request } from "node:http"

/** No normal request waits longer than this: one that does counts as an error. */
export const requestTimeoutMs = 30_000

/** The most requests one client sends in a run, whatever the speed. */
export const maxRequestsPerClient = 100_000

export interface Answer {
  readonly status: number
  readonly text: string
}

/** One request; "timeout" when no answer came within `timeoutMs`, "error" when the connection failed. */
export const call = (options: {
  readonly port: number
  readonly method: string
  readonly path: string
  readonly headers?: Record<string, string>
  readonly body?: Buffer | string
  readonly agent?: Agent | false
  readonly timeoutMs?: number
}) =>
  new Promise<Answer | "timeout" | "error">((resolve) => {
    let settled = false
    const settle = (value: Answer | "timeout" | "error") => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(value)
    }
    const req = request(
      {
        host: "127.0.0.1",
        port: options.port,
        method: options.method,
        path: options.path,
        headers: options.headers,
        agent: options.agent ?? false
      },
      (res) => {
        let text = ""
        res.setEncoding("utf8")
        res.on("data", (chunk) => (text.length < 4096 ? (text += chunk) : undefined))
        res.on("end", () => settle({ status: res.statusCode ?? 0, text }))
        res.on("error", () => settle("error"))
      }
    )
    const timer = setTimeout(() => {
      req.destroy()
      settle("timeout")
    }, options.timeoutMs ?? requestTimeoutMs)
    req.on("error", () => settle("error"))
    req.end(options.body)
  })

export const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
