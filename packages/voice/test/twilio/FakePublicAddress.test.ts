import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { createServer, type Server } from "node:http"
import * as FakePublicAddress from "../../testing/twilio/FakePublicAddress.js"

/** A server answering its name, for the scope. */
const named = (name: string) =>
  Effect.acquireRelease(
    Effect.async<{ readonly server: Server; readonly port: number }>((resume) => {
      const server = createServer((_, response) => response.end(name))
      server.listen(0, "127.0.0.1", () =>
        resume(Effect.succeed({ server, port: (server.address() as { port: number }).port }))
      )
    }),
    ({ server }) => Effect.async<void>((resume) => void server.close(() => resume(Effect.void)))
  )

/** One request on a connection of its own. */
const ask = (url: string) =>
  Effect.promise(async () => (await fetch(url, { headers: { connection: "close" } })).text())

describe("FakePublicAddress: one address in front of several servers", () => {
  it.scopedLive("hands connections to the servers in turn, and skips one that refuses", () =>
    Effect.gen(function* () {
      const a = yield* named("a")
      const b = yield* named("b")
      const address = yield* FakePublicAddress.start([a.port, b.port])
      const answers = [yield* ask(address.url), yield* ask(address.url), yield* ask(address.url)]
      expect([...answers].sort()).toEqual(["a", "a", "b"])
      // b stops listening: every request now reaches a
      yield* Effect.async<void>((resume) => {
        b.server.closeAllConnections()
        b.server.close(() => resume(Effect.void))
      })
      for (let i = 0; i < 4; i++) expect(yield* ask(address.url)).toBe("a")
      expect(address.handedTo().get(a.port)).toBe(6)
    })
  )
})
