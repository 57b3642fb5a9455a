import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { CallScript } from "@voice-agent-platform/core"
import { CallingClock } from "@voice-agent-platform/core/testing"
import { Effect, Schema } from "effect"
import { createServer, request, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import * as Client from "../../src/embedding/Client.js"
import { OutsideCallingHours, TooManyRequests } from "@voice-agent-platform/contract/errors/ApiErrors.js"
import { removeDataDirectories, type Running, send, start, stop } from "../support/ServerProcesses.js"

/** The machine's clock when the suite began: the day its server's clock starts on (`CallingClock`). */
const suiteStarted = new Date()

/** What went through the recording proxy: one line per request. */
interface Seen {
  readonly method: string
  readonly path: string
  readonly idempotencyKey: string | undefined
  readonly status: number
  readonly retryAfter: string | undefined
  readonly at: number
}

/** A loopback proxy in front of `port` that records every request and the status answered. */
const recordingProxy = async (port: number) => {
  const seen: Array<Seen> = []
  const server: Server = createServer((incoming, outgoing) => {
    const forwarded = request(
      { host: "127.0.0.1", port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        seen.push({
          method: incoming.method ?? "",
          path: incoming.url ?? "",
          idempotencyKey: incoming.headers["idempotency-key"] as string | undefined,
          status: answer.statusCode ?? 0,
          retryAfter: answer.headers["retry-after"],
          at: Date.now()
        })
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(outgoing)
      }
    )
    forwarded.on("error", () => outgoing.destroy())
    incoming.pipe(forwarded)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/** A loopback server answering every request 429, with `retryAfter` when given; counts the requests. */
const alwaysBusy = async (retryAfter?: string) => {
  const times: Array<number> = []
  const server = createServer((_incoming, outgoing) => {
    times.push(Date.now())
    outgoing.writeHead(429, {
      "content-type": "application/json",
      ...(retryAfter === undefined ? {} : { "retry-after": retryAfter })
    })
    outgoing.end(JSON.stringify({ detail: "Every outbound channel is busy" }))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    times,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

const adminToken = "typed-client-admin-token-0123"
const payload = Schema.decodeUnknownSync(CallScript.CallScriptRequest)({ agent: { greeting: "Hello." } })

describe("the typed client against the bundled server", () => {
  let server: Running
  let apiKey: string
  beforeAll(async () => {
    // at 11:00 UTC today, whatever the hour: one number inside calling hours, one outside
    server = await start({
      ADMIN_TOKEN: adminToken,
      // the first call must still talk when the second is asked for, however loaded the machine (a call
      // of 1 s had ended before a slow client's second request once); it ends before the retry at 30 s
      SIM_CALL_SECONDS: "15",
      ...CallingClock.env(suiteStarted)
    })
    // an organization with one outbound channel: a second call while the first talks is 429
    const created = await send(
      server.port,
      "POST",
      "/admin/v1/organizations",
      { bearer: adminToken },
      {
        name: "One channel",
        outbound_channels: 1
      }
    )
    expect(created.status).toBe(200)
    apiKey = created.json.api_key
  }, 120_000)
  afterAll(async () => {
    if (server !== undefined) await stop(server)
    removeDataDirectories()
  })

  it("waits Retry-After on 429 and retries the call with the Idempotency-Key it generated", async () => {
    const proxy = await recordingProxy(server.port)
    try {
      const number = CallingClock.inside
      const placed = await Effect.runPromise(
        Effect.gen(function* () {
          const client = yield* Client.make({ baseUrl: proxy.url, apiKey })
          const agent = yield* client.agents.createFromScript({ payload })
          const place = client.calls.placeWithAgent({
            path: { agent_id: agent.public_id },
            payload: { phone_number: number },
            headers: {}
          })
          const first = yield* place
          const second = yield* place
          return { agent, first, second }
        })
      )
      expect(placed.first.status).toBe("queued")
      expect(placed.second.status).toBe("queued")
      expect(placed.second.workflow_run_id).not.toBe(placed.first.workflow_run_id)
      const calls = proxy.seen.filter((seen) => seen.method === "POST" && seen.path.endsWith("/calls"))
      // the first call at once; the second refused while the first talks, then placed after Retry-After
      expect(calls[0]!.status).toBe(200)
      const second = calls.slice(1)
      expect(second.length).toBeGreaterThanOrEqual(2)
      expect(second.map((seen) => seen.status)).toEqual([...second.slice(1).map(() => 429), 200])
      expect(new Set(second.map((seen) => seen.idempotencyKey)).size).toBe(1)
      expect(second[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/)
      expect(second[0]!.idempotencyKey).not.toBe(calls[0]!.idempotencyKey)
      // it waited what the server asked (the simulated runtime does not say when a call ends: 30 s)
      const asked = Number(second[0]!.retryAfter)
      expect(asked).toBeGreaterThanOrEqual(1)
      expect(second[1]!.at - second[0]!.at).toBeGreaterThanOrEqual(asked * 1000 - 50)
      // exactly two calls were placed
      const runs = await send(server.port, "GET", `/api/v1/agents/${placed.agent.public_id}/conversations`, {
        apiKey
      })
      expect(runs.json.total_count).toBe(2)
    } finally {
      await proxy.close()
    }
  }, 60_000)

  it("fails a call outside calling hours with a typed error carrying retry_at, without retrying", async () => {
    const proxy = await recordingProxy(server.port)
    try {
      const error = await Effect.runPromise(
        Effect.gen(function* () {
          const client = yield* Client.make({ baseUrl: proxy.url, apiKey })
          const agent = yield* client.agents.createFromScript({ payload })
          return yield* Effect.flip(
            client.calls.placeWithAgent({
              path: { agent_id: agent.public_id },
              payload: { phone_number: CallingClock.outside },
              headers: {}
            })
          )
        })
      )
      expect(error).toBeInstanceOf(OutsideCallingHours)
      const refusal = error as OutsideCallingHours
      expect(refusal.detail.code).toBe("outside_calling_hours")
      expect(new Date(refusal.detail.retry_at)).toEqual(CallingClock.outsideOpensAt(suiteStarted))
      expect(proxy.seen.filter((seen) => seen.path.endsWith("/calls"))).toHaveLength(1)
    } finally {
      await proxy.close()
    }
  }, 60_000)
})

describe("the typed client's bounds on retries", () => {
  it("gives up after maxAttempts with back-off when there is no Retry-After, answering the typed 429", async () => {
    const busy = await alwaysBusy()
    try {
      const error = await Effect.runPromise(
        Effect.gen(function* () {
          const client = yield* Client.make({
            baseUrl: busy.url,
            apiKey: `vap_${"B".repeat(40)}`,
            retry: { maxAttempts: 3, baseDelay: "40 millis", maxDelay: "1 second" }
          })
          return yield* Effect.flip(
            client.calls.placeWithAgent({
              path: { agent_id: "agent_x" },
              payload: { phone_number: "+48500100200" },
              headers: {}
            })
          )
        })
      )
      expect(error).toBeInstanceOf(TooManyRequests)
      expect(busy.times).toHaveLength(3)
      // back-off: 20..40 ms, then 40..80 ms (timers may fire a little late, never early)
      expect(busy.times[1]! - busy.times[0]!).toBeGreaterThanOrEqual(19)
      expect(busy.times[2]! - busy.times[1]!).toBeGreaterThanOrEqual(39)
    } finally {
      await busy.close()
    }
  })

  it("does not wait a Retry-After longer than maxRetryAfter, and never retries with retry: false", async () => {
    const busy = await alwaysBusy("3600")
    try {
      for (const retry of [{ maxRetryAfter: "10 seconds" }, false] as const) {
        const before = busy.times.length
        const started = Date.now()
        const exit = await Effect.runPromiseExit(
          Effect.flatMap(Client.make({ baseUrl: busy.url, retry }), (client) =>
            client.agents.list({ urlParams: { page: 1, limit: 50 } })
          )
        )
        expect(exit._tag).toBe("Failure")
        expect(busy.times.length - before).toBe(1)
        expect(Date.now() - started).toBeLessThan(5_000)
      }
    } finally {
      await busy.close()
    }
  })
})
