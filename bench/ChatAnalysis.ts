// Analysed runs per second: chats with conversations ended at once (`POST …/end`, `concurrency` at a
// time), then the time from the first end until every one of them reads `analysis_status` `completed`
// (or `failed`) through the API. The runs are read oldest end first, one at a time: the one read is
// read again every 20 ms until its analysis is done, then the next (jobs are claimed in about the order
// the ends queued them), so the polling adds about one request per run and 50 a second. Bounded by
// `deadline`; loopback only.
import { Agent, request } from "node:http"
import type { ChatRun } from "./ChatLoad.js"
import { endChats } from "./ChatLoad.js"
import { percentile } from "./ChatFigures.js"
import { cpuMicros } from "./ServerProcess.js"

/** What the analysis of the runs came to. */
export interface AnalysisFigures {
  readonly runs: number
  readonly completed: number
  readonly failed: number
  /** Statuses other than `completed` and `failed` (`skipped`: nothing was said), by status. */
  readonly other: string
  /** From the first end to the last analysis seen done. */
  readonly seconds: number
  readonly perSecond: number
  /** The server process's CPU over that time per analysed run, in ms. */
  readonly cpuMs: number | undefined
  readonly endP50: number
  readonly endP99: number
  readonly timedOut: boolean
}

const statusOf = (agent: Agent, port: number, run: ChatRun) =>
  new Promise<string | null>((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: `/api/v1/agents/${run.agent.agentId}/conversations/${run.runId}`,
        headers: { "x-api-key": run.agent.apiKey },
        agent
      },
      (res) => {
        let text = ""
        res.setEncoding("utf8")
        res.on("data", (chunk: string) => (text += chunk))
        res.on("end", () =>
          res.statusCode === 200
            ? resolve(JSON.parse(text).analysis_status)
            : reject(new Error(`reading run ${run.runId} answered ${res.statusCode}: ${text.slice(0, 200)}`))
        )
      }
    )
    req.setTimeout(30_000, () => req.destroy(new Error("no answer in 30 s")))
    req.on("error", reject)
    req.end()
  })

/** Waits until each run's analysis is no longer `pending` (at most until `deadline`); answers the statuses. */
export const awaitAnalysed = async (port: number, runs: ReadonlyArray<ChatRun>, deadline: number) => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const statuses: Array<string | null> = []
  try {
    for (const run of runs) {
      for (;;) {
        const status = await statusOf(agent, port, run)
        if (status !== "pending" || Date.now() > deadline) {
          statuses.push(status)
          break
        }
        await new Promise((r) => setTimeout(r, 20))
      }
    }
  } finally {
    agent.destroy()
  }
  return statuses
}

/** Ends `runs` and measures their analysis on the server at `port` (process `pid`). */
export const measureAnalysis = async (
  port: number,
  pid: number | undefined,
  runs: ReadonlyArray<ChatRun>,
  concurrency: number,
  deadline: number
): Promise<AnalysisFigures> => {
  const cpuBefore = pid === undefined ? undefined : cpuMicros(pid)
  const started = performance.now()
  const ends = (await endChats(port, runs, concurrency)).sort((a, b) => a - b)
  const statuses = await awaitAnalysed(port, runs, deadline)
  const seconds = (performance.now() - started) / 1000
  const cpuAfter = pid === undefined ? undefined : cpuMicros(pid)
  const completed = statuses.filter((status) => status === "completed").length
  const failed = statuses.filter((status) => status === "failed").length
  return {
    runs: runs.length,
    completed,
    failed,
    other: [...new Set(statuses)]
      .filter((status) => status !== "completed" && status !== "failed")
      .map((status) => `${statuses.filter((s) => s === status).length} ${status}`)
      .join(", "),
    seconds,
    perSecond: (completed + failed) / seconds,
    cpuMs:
      cpuBefore === undefined || cpuAfter === undefined || completed + failed === 0
        ? undefined
        : (cpuAfter - cpuBefore) / 1000 / (completed + failed),
    endP50: percentile(ends, 50),
    endP99: percentile(ends, 99),
    timedOut: statuses.includes("pending")
  }
}

/** The line printed for an analysis measurement. */
export const describeAnalysis = (name: string, f: AnalysisFigures) =>
  `${name}: ${f.runs} chats ended (end p50 ${f.endP50.toFixed(1)} ms, p99 ${f.endP99.toFixed(1)} ms), ${f.completed} analysed, ${f.failed} failed${f.other === "" ? "" : `, ${f.other}`} in ${f.seconds.toFixed(1)} s = ${f.perSecond.toFixed(1)} analysed runs/s, CPU ${f.cpuMs === undefined ? "?" : f.cpuMs.toFixed(1)} ms a run${f.timedOut ? " (deadline reached)" : ""}`
