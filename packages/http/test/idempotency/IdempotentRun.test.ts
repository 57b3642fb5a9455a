import { HttpServerResponse } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { IdempotencyKey, IdempotencyStore, InMemory, Organizations } from "@voice-agent-platform/core"
import { Effect, Fiber, Schema } from "effect"
import { Conflict } from "@voice-agent-platform/contract/errors/ApiErrors.js"
import * as Idempotent from "../../src/idempotency/Idempotent.js"
import { CurrentOrganization } from "../../src/middleware/Authentication.js"

describe("Idempotent.run", () => {
  /** Runs the test as an organization of a fresh in-memory engine, as the authentication would. */
  const withOrganization = <E>(
    effect: Effect.Effect<void, E, CurrentOrganization | IdempotencyStore.IdempotencyStore>
  ) =>
    Effect.gen(function* () {
      const { organization: org } = yield* (yield* Organizations.Organizations).create({ name: "Unit" })
      yield* Effect.provideService(effect, CurrentOrganization, org)
    }).pipe(Effect.provide(InMemory.layer))

  const request = (key: string) => ({
    headers: { "Idempotency-Key": IdempotencyKey.IdempotencyKey.make(key) },
    method: "POST",
    route: "/things",
    path: {},
    body: { n: 1 },
    success: Schema.Struct({ n: Schema.Number })
  })

  it.effect("frees the key when the request is interrupted, so that a retry runs", () =>
    withOrganization(
      Effect.gen(function* () {
        const started = yield* Effect.makeLatch(false)
        const fiber = yield* Effect.fork(
          Idempotent.run(request("cut"), Effect.zipRight(started.open, Effect.never))
        )
        yield* started.await
        yield* Fiber.interrupt(fiber)
        const retried = yield* Idempotent.run(request("cut"), Effect.succeed({ n: 2 }))
        expect(retried).toEqual({ n: 2 })
      })
    )
  )

  it.effect("runs one of many simultaneous requests; the others are 409 while it runs, then replays", () =>
    withOrganization(
      Effect.gen(function* () {
        const started = yield* Effect.makeLatch(false)
        const release = yield* Effect.makeLatch(false)
        let runs = 0
        const slow = Effect.sync(() => ++runs).pipe(
          Effect.zipRight(started.open),
          Effect.zipRight(release.await),
          Effect.as({ n: 1 })
        )
        const first = yield* Effect.fork(Idempotent.run(request("together"), slow))
        yield* started.await
        const others = yield* Effect.all(
          Array.from({ length: 4 }, () => Effect.either(Idempotent.run(request("together"), slow))),
          { concurrency: "unbounded" }
        )
        for (const other of others) {
          expect(other._tag).toBe("Left")
          if (other._tag === "Left") expect(other.left).toBeInstanceOf(Conflict)
        }
        yield* release.open
        expect(yield* Fiber.join(first)).toEqual({ n: 1 })
        const later = yield* Idempotent.run(request("together"), slow)
        expect(HttpServerResponse.isServerResponse(later)).toBe(true)
        expect(runs).toBe(1)
      })
    )
  )

  it.effect("frees the key when the handler dies (a 500), and keeps a success", () =>
    withOrganization(
      Effect.gen(function* () {
        const died = yield* Effect.exit(Idempotent.run(request("boom"), Effect.die("boom")))
        expect(died._tag).toBe("Failure")
        let runs = 0
        const handler = Effect.sync(() => ++runs).pipe(Effect.as({ n: 3 }))
        expect(yield* Idempotent.run(request("boom"), handler)).toEqual({ n: 3 })
        const again = yield* Idempotent.run(request("boom"), handler)
        expect(runs).toBe(1)
        // a replay is the stored answer as a response, not the handler's value
        expect(HttpServerResponse.isServerResponse(again)).toBe(true)
        if (HttpServerResponse.isServerResponse(again)) {
          expect(again.status).toBe(200)
          expect(again.headers["idempotency-replayed"]).toBe("true")
        }
      })
    )
  )
})
