import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { PayloadTooLarge } from "@voice-agent-platform/contract/errors/ApiErrors.js"
import { NodeRequest } from "../../src/direct/NodeRequest.js"
import * as BodyStream from "../../src/edge/BodyStream.js"

/** What the server saw of each request's body: its text, a 413, a read error, or still waiting. */
type Outcome = { readonly _tag: "Body"; readonly text: string } | { readonly _tag: "TooLarge" | "Failed" }

/**
 * A loopback server whose every request reads its body with `BodyStream.collect` (at most `maxBytes`) and
 * answers what it got; `outcomes` keeps each one, also for requests whose client went away.
 */
const withServer = <A>(maxBytes: number, use: (port: number, outcomes: Array<Outcome>) => Promise<A>) => {
  const outcomes: Array<Outcome> = []
  const server = Http.createServer((request, response) => {
    void Effect.runPromiseExit(BodyStream.collect(new NodeRequest(request), maxBytes)).then((exit) => {
      const outcome: Outcome = Exit.isSuccess(exit)
        ? { _tag: "Body", text: new TextDecoder().decode(exit.value) }
        : Cause.squash(exit.cause) instanceof PayloadTooLarge
          ? { _tag: "TooLarge" }
          : { _tag: "Failed" }
      outcomes.push(outcome)
      response.writeHead(outcome._tag === "TooLarge" ? 413 : 200, { "content-type": "application/json" })
      response.end(JSON.stringify(outcome))
    })
  })
  return Effect.acquireUseRelease(
    Effect.async<number>((resume) => {
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed((server.address() as AddressInfo).port)))
    }),
    (port) => Effect.promise(() => use(port, outcomes)),
    () =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )
}

/** Sends `parts` one after the other (chunked), over `agent`; answers the status and body. */
const send = (port: number, parts: ReadonlyArray<string>, agent?: Http.Agent) =>
  new Promise<{ readonly status: number; readonly text: string }>((resolve, reject) => {
    const request = Http.request(
      { host: "127.0.0.1", port, method: "POST", path: "/", agent },
      (response) => {
        let text = ""
        response.setEncoding("utf8")
        response.on("data", (chunk: string) => (text += chunk))
        response.on("end", () => resolve({ status: response.statusCode ?? 0, text }))
      }
    )
    request.on("error", reject)
    let i = 0
    const next = () => {
      if (i === parts.length) return request.end()
      request.write(parts[i++])
      setTimeout(next, 5)
    }
    next()
  })

const until = async (done: () => boolean) => {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10))
}

describe("BodyStream.collect on a Node request", () => {
  it.live("reads a body that arrives in parts whole, and a copy of its own", () =>
    withServer(1024, async (port) => {
      const answer = await send(port, ['{"a":', '"b",', '"c":1}'])
      expect(answer.status).toBe(200)
      expect(JSON.parse(answer.text)).toEqual({ _tag: "Body", text: '{"a":"b","c":1}' })
    })
  )

  it.live(
    "refuses a body over the limit as it arrives (413), and the connection serves the next request",
    () =>
      withServer(10, async (port) => {
        const agent = new Http.Agent({ keepAlive: true, maxSockets: 1 })
        try {
          const over = await send(port, ["0123456789", "0123456789", "0123456789"], agent)
          expect(over.status).toBe(413)
          const next = await send(port, ["small"], agent)
          expect(JSON.parse(next.text)).toEqual({ _tag: "Body", text: "small" })
        } finally {
          agent.destroy()
        }
      })
  )

  it.live("fails, never waits, when the client goes away before its body arrived", () =>
    withServer(1024, async (port, outcomes) => {
      const request = Http.request({
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/",
        headers: { "content-length": "100" }
      })
      request.on("error", () => {})
      request.write("part of it")
      await new Promise((resolve) => setTimeout(resolve, 50))
      request.destroy()
      await until(() => outcomes.length > 0)
      expect(outcomes).toEqual([{ _tag: "Failed" }])
    })
  )
})
