import { createServer } from "node:net"
import { Effect, Schedule } from "effect"
import type { Running } from "./FakeSpeechServer.js"

/** What tests of a speech adapter wait for and point at, on the real clock. */

/**
 * Whether the fake saw the client close the last request's connection before its answer ended (the
 * adapter aborted it), waiting at most 5 s.
 */
export const abortSeen = (fake: Running) =>
  fake.requests.pipe(
    Effect.map((requests) => requests[requests.length - 1]),
    Effect.filterOrFail((request) => request?.client_closed === true),
    Effect.retry({ schedule: Schedule.spaced("20 millis"), times: 250 }),
    Effect.as(true),
    Effect.orElseSucceed(() => false)
  )

/** A loopback port nobody listens on right now. */
export const unusedPort = Effect.async<number>((resume) => {
  const server = createServer()
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    server.close(() =>
      resume(Effect.succeed(typeof address === "object" && address !== null ? address.port : 0))
    )
  })
})
