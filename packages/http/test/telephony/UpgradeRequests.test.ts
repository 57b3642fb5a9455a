import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { connect } from "node:net"
import { api, apiKey, started } from "./TwilioHarness.js"

/** Sends `raw` as it is on a new connection; what came back when the server closed it. */
const rawExchange = (origin: string, raw: string) =>
  Effect.async<string>((resume) => {
    const { hostname, port } = new URL(origin)
    const socket = connect(Number(port), hostname, () => socket.write(raw))
    let received = ""
    socket.on("data", (chunk) => (received += chunk.toString("utf8")))
    socket.on("error", () => socket.destroy())
    socket.on("close", () => resume(Effect.succeed(received)))
    return Effect.sync(() => socket.destroy())
  })

/**
 * Requests that carry `Upgrade` but are not a media socket, on a server with `TELEPHONY=twilio` (whose
 * media sockets listen for upgrades): the API answers them.
 */
describe("ordinary requests carrying Upgrade, beside the media sockets", { timeout: 120_000 }, () => {
  it.scopedLive("a request with Upgrade: h2c (curl --http2) is answered by the API, not refused", () =>
    Effect.gen(function* () {
      const { origin } = yield* started()
      const host = new URL(origin).host
      const listed = yield* rawExchange(
        origin,
        `GET /api/v1/agents HTTP/1.1\r\nHost: ${host}\r\nX-API-Key: ${apiKey}\r\n` +
          "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n\r\n"
      )
      expect(listed).toMatch(/^HTTP\/1\.1 200 /)
      expect(listed).toMatch(/\r\nconnection: close\r\n/i)
      expect(listed).toContain('"items":[')
      // without the key, the API's own 401, not the media sockets' 404
      const unauthorized = yield* rawExchange(
        origin,
        `GET /api/v1/agents HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n`
      )
      expect(unauthorized).toMatch(/^HTTP\/1\.1 401 /)
      // a body Node never parsed cannot be served: a 400 that says what to do
      const body = JSON.stringify({ agent: { greeting: "Hello", agent_goal: "Confirm" } })
      const posted = yield* rawExchange(
        origin,
        `POST /api/v1/agents/from-script HTTP/1.1\r\nHost: ${host}\r\nX-API-Key: ${apiKey}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n` +
          `Connection: Upgrade\r\nUpgrade: h2c\r\n\r\n${body}`
      )
      expect(posted).toMatch(/^HTTP\/1\.1 400 /)
      expect(posted).toContain("without the Upgrade header")
      expect((yield* api(origin, "GET", "/agents")).body.items).toEqual([])
    })
  )
})
