import { describe, expect, it } from "@effect/vitest"
import { FakeOpenAiServer } from "@voice-agent-platform/language-models/testing"
import { Effect, Exit, Scope } from "effect"
import { adapterOver } from "./support/OverFake.js"

/** Whether a process group exists (signal 0 checks without signalling). */
const groupAlive = (pid: number) => {
  try {
    process.kill(-pid, 0)
    return true
  } catch {
    return false
  }
}

describe("FakeOpenAiServer", () => {
  it.live("runs in a process group of its own on loopback, and is gone with its scope", () =>
    Effect.gen(function* () {
      const scope = yield* Scope.make()
      const fake = yield* Scope.extend(FakeOpenAiServer.start, scope)
      expect(fake.baseUrl).toBe(`http://127.0.0.1:${fake.port}/v1`)
      expect(groupAlive(fake.pid)).toBe(true)
      yield* Scope.close(scope, Exit.void)
      expect(groupAlive(fake.pid)).toBe(false)
      const refused = yield* Effect.either(Effect.tryPromise(() => fetch(`${fake.baseUrl}/chat/completions`)))
      expect(refused._tag).toBe("Left")
    })
  )

  it.scopedLive(
    "records requests, forgets them on reset, answers unknown paths 404, and waits its default delay",
    () =>
      Effect.gen(function* () {
        const fake = yield* FakeOpenAiServer.start
        const models = yield* Effect.promise(() => fetch(`${fake.baseUrl}/models`))
        expect(models.status).toBe(404)
        expect(yield* Effect.promise(() => models.json())).toMatchObject({ error: { code: "unknown_url" } })
        expect((yield* fake.requests).map((request) => `${request.method} ${request.path}`)).toEqual([
          "GET /v1/models"
        ])
        yield* fake.reset
        expect(yield* fake.requests).toEqual([])
        // a model that takes longer than the adapter's deadline
        yield* fake.setDefaultDelay(60_000)
        const model = yield* adapterOver(fake, { timeoutMs: 100 })
        const late = yield* Effect.flip(model.generate({ messages: [{ role: "user", content: "Hi" }] }))
        expect(late._tag).toBe("ModelDeadline")
        yield* fake.reset
        expect((yield* model.generate({ messages: [{ role: "user", content: "Hi" }] })).text).toBe(
          "You said: Hi"
        )
      })
  )
})
