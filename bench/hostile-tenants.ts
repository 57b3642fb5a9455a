// Load test: one organization sends hostile bodies while another uses the API normally, through the bundled
// server (embedded database, fresh data directory). Eight normal clients list conversations, read their
// agent and place calls, first alone, then beside eight hostile clients sending 10 MB `audio/*` bodies to a
// JSON endpoint, `application/octet-stream` and `application/xml` bodies, unauthenticated large chunked
// bodies, `multipart/*` bodies to JSON endpoints and slow body drips. Prints the normal clients' p50/p99
// and errors in both runs and the ratio of p99s (acceptance: under 3, no errors); exits 1 when it fails.
// Bounded in time and count, loopback only; the server runs in its own process group, stopped on every
// exit path. Run: `npm run bench:hostile` (HOSTILE_BENCH_SECONDS, default 10, per run;
// HOSTILE_BENCH_SKIP=audio,drip leaves out the hostile kinds whose names contain those words).
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { Agent } from "node:http"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { maxRequestsPerClient, call, percentile } from "./TimedRequests.js"
import { hostileClients, hostileKey, hostileLoad } from "./HostileRequests.js"

const seconds = Number(process.env.HOSTILE_BENCH_SECONDS ?? 10)

const normalClients = 8

const adminToken = "hostile-bench-operator-token-0123456789"

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

interface NormalResult {
  readonly requests: number
  readonly errors: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly errorSamples: ReadonlyArray<string>
}

/** Eight clients of a well-behaved organization: list conversations, read the agent, place a call. */
const normalLoad = async (
  port: number,
  apiKey: string,
  agentId: string,
  until: number
): Promise<NormalResult> => {
  const agent = new Agent({ keepAlive: true, maxSockets: normalClients })
  const headers = { "x-api-key": apiKey, "content-type": "application/json" }
  const latencies: Array<number> = []
  const errorSamples: Array<string> = []
  let errors = 0
  const client = async (index: number) => {
    for (let i = 0; i < maxRequestsPerClient && Date.now() < until; i++) {
      const kind = (i + index) % 10
      const t0 = performance.now()
      const answer =
        kind < 6
          ? await call({
              port,
              method: "GET",
              path: `/api/v1/agents/${agentId}/conversations?limit=20`,
              headers,
              agent
            })
          : kind < 9
            ? await call({ port, method: "GET", path: `/api/v1/agents/${agentId}`, headers, agent })
            : await call({
                port,
                method: "POST",
                path: `/api/v1/agents/${agentId}/calls`,
                headers,
                agent,
                // a non-geographic number: no calling hours apply, whatever the time of the run
                body: JSON.stringify({
                  phone_number: "+800 1234 5678",
                  initial_context: { customer: `c${i}` }
                })
              })
      if (typeof answer === "object" && answer.status >= 200 && answer.status < 300) {
        latencies.push(performance.now() - t0)
      } else {
        errors++
        if (errorSamples.length < 5) {
          errorSamples.push(
            typeof answer === "object" ? `${answer.status} ${answer.text.slice(0, 160)}` : answer
          )
        }
      }
    }
  }
  await Promise.all(Array.from({ length: normalClients }, (_, i) => client(i)))
  agent.destroy()
  const sorted = latencies.sort((a, b) => a - b)
  return {
    requests: sorted.length,
    errors,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    errorSamples
  }
}

const line = (name: string, r: NormalResult) =>
  `${name.padEnd(26)} ${String(r.requests).padStart(7)} ok   p50 ${r.p50Ms.toFixed(1).padStart(8)} ms   p99 ${r.p99Ms.toFixed(1).padStart(8)} ms   ${r.errors} errors`

const main = fileURLToPath(new URL("../packages/http/src/server/main.ts", import.meta.url))

const dataDirectory = mkdtempSync(join(tmpdir(), "vap-hostile-"))

let server: ChildProcess | undefined

/** Stops the server's whole process group: SIGTERM, then SIGKILL if it is still there 15 s later. */
const stopServer = async () => {
  const child = server
  if (child?.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once("exit", resolve))
  try {
    process.kill(-child.pid, "SIGTERM")
  } catch {
    return
  }
  const killed = setTimeout(() => {
    try {
      process.kill(-child.pid!, "SIGKILL")
    } catch {
      // gone already
    }
  }, 15_000)
  await exited
  clearTimeout(killed)
}

// Whatever ends this process, the server's group goes with it.
process.once("exit", () => {
  if (server?.pid !== undefined && server.exitCode === null) {
    try {
      process.kill(-server.pid, "SIGKILL")
    } catch {
      // gone already
    }
  }
})

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void stopServer().finally(() => process.exit(130))
  })
}

try {
  const port = await freePort()
  server = spawn(process.execPath, ["--conditions=@voice-agent-platform/source", "--import", "tsx", main], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDirectory,
      ADMIN_TOKEN: adminToken,
      BOOTSTRAP_API_KEY: hostileKey,
      SIM_CALL_SECONDS: "0.5"
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true
  })
  let output = ""
  server.stdout!.on("data", (c) => (output += c))
  server.stderr!.on("data", (c) => (output += c))
  const startDeadline = Date.now() + 120_000
  while (!output.includes("listening on")) {
    if (Date.now() > startDeadline || server.exitCode !== null)
      throw new Error(`the server did not start:\n${output}`)
    await new Promise((r) => setTimeout(r, 50))
  }

  // The well-behaved organization: enough channels for its calls, an agent, a page of conversations.
  const created = await call({
    port,
    method: "POST",
    path: "/admin/v1/organizations",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "Well-behaved", outbound_channels: 10_000 })
  })
  if (typeof created !== "object" || created.status !== 200)
    throw new Error(`could not create an organization: ${JSON.stringify(created)}`)
  const apiKey = JSON.parse(created.text).api_key as string
  const headers = { "x-api-key": apiKey, "content-type": "application/json" }
  const agentAnswer = await call({
    port,
    method: "POST",
    path: "/api/v1/agents/from-script",
    headers,
    body: JSON.stringify({ agent: { greeting: "Hello" } })
  })
  if (typeof agentAnswer !== "object" || agentAnswer.status !== 200)
    throw new Error(`could not create an agent: ${JSON.stringify(agentAnswer)}`)
  const agentId = JSON.parse(agentAnswer.text).public_id as string
  for (let i = 0; i < 30; i++) {
    await call({
      port,
      method: "POST",
      path: `/api/v1/agents/${agentId}/conversations`,
      headers,
      body: JSON.stringify({ mode: "chat", initial_context: { customer: `Customer ${i}` } })
    })
  }

  console.log(
    `${normalClients} normal clients (list conversations, read the agent, place a call), ${seconds} s alone, then ${seconds} s beside ${hostileClients} hostile clients`
  )
  // warm-up, then the run without hostile clients, then the run with them
  await normalLoad(port, apiKey, agentId, Date.now() + 1000)
  const alone = await normalLoad(port, apiKey, agentId, Date.now() + seconds * 1000)
  const until = Date.now() + seconds * 1000
  const [beside, hostile] = await Promise.all([
    normalLoad(port, apiKey, agentId, until),
    hostileLoad(port, until)
  ])

  console.log(line("normal clients alone", alone))
  console.log(line("beside hostile clients", beside))
  // No answered request beside the hostile clients is the worst case, not a ratio of 0.
  const ratio = beside.requests > 0 && alone.p99Ms > 0 ? beside.p99Ms / alone.p99Ms : Number.POSITIVE_INFINITY
  console.log(
    `p99 ratio (beside / alone): ${Number.isFinite(ratio) ? ratio.toFixed(2) : "unbounded (no request answered)"}   errors beside hostile clients: ${beside.errors}`
  )
  for (const sample of beside.errorSamples) console.log(`  error: ${sample}`)
  console.log("hostile requests (kind → answer):")
  for (const [key, n] of [...hostile.entries()].sort()) console.log(`  ${String(n).padStart(5)}  ${key}`)
  const accepted = ratio < 3 && beside.errors === 0 && alone.errors === 0
  console.log(`acceptance (p99 ratio < 3, 0 errors): ${accepted ? "PASS" : "FAIL"}`)
  if (!accepted) process.exitCode = 1
} finally {
  await stopServer()
  rmSync(dataDirectory, { recursive: true, force: true })
}
