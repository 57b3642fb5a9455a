import { Agent, request } from "node:http"

/** What one measured load run gives. */
export interface LoadResult {
  readonly requests: number
  readonly errors: number
  readonly seconds: number
  readonly requestsPerSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

/**
 * Sends GET requests over keep-alive connections, `concurrency` at a time, for `seconds`, and measures
 * throughput and latency. Bounded in time and count; loopback only.
 */
export const load = async (options: {
  readonly port: number
  readonly path: string
  /** When given, worker `i` of the `concurrency` asks `paths[i % paths.length]` instead of `path`. */
  readonly paths?: ReadonlyArray<string>
  /** When given, every request asks what it answers (its path and headers), instead of `path`/`paths`. */
  readonly next?: () => { readonly path: string; readonly headers: Record<string, string> }
  readonly headers?: Record<string, string>
  readonly concurrency: number
  readonly seconds: number
  /** The status that counts as answered (default 200); any other is an error. */
  readonly status?: number
}): Promise<LoadResult> => {
  const expected = options.status ?? 200
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency })
  const latencies: Array<number> = []
  let errors = 0
  const started = performance.now()
  const deadline = started + options.seconds * 1000
  const once = (path: string, headers = options.headers) =>
    new Promise<void>((resolve) => {
      const t0 = performance.now()
      const req = request({ host: "127.0.0.1", port: options.port, path, headers, agent }, (res) => {
        res.resume()
        res.on("end", () => {
          if (res.statusCode === expected) latencies.push(performance.now() - t0)
          else errors++
          resolve()
        })
      })
      req.on("error", () => {
        errors++
        resolve()
      })
      req.end()
    })
  const worker = async (index: number) => {
    const paths = options.paths
    const path = paths === undefined || paths.length === 0 ? options.path : paths[index % paths.length]!
    const next = options.next
    while (performance.now() < deadline && latencies.length + errors < 5_000_000) {
      if (next === undefined) await once(path)
      else {
        const chosen = next()
        await once(chosen.path, chosen.headers)
      }
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, (_, index) => worker(index)))
  const seconds = (performance.now() - started) / 1000
  agent.destroy()
  const sorted = latencies.sort((a, b) => a - b)
  return {
    requests: sorted.length,
    errors,
    seconds,
    requestsPerSecond: sorted.length / seconds,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99)
  }
}
