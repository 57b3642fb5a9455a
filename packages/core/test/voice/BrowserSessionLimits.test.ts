import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { Runs } from "../../src/runs/Runs.js"
import { RunStore } from "../../src/runs/RunStore.js"
import * as BrowserSessionLimits from "../../src/voice/BrowserSessionLimits.js"
import * as Fixtures from "../../testing/Fixtures.js"
import { engine, setNow } from "../services/Engine.js"

describe("BrowserSessionLimits", () => {
  it.effect(
    "counts sessions not yet opened (within their token's life) and in progress; refuses past the cap",
    () =>
      Effect.gen(function* () {
        yield* setNow("2026-03-01T09:00:00Z")
        const organization = yield* Fixtures.organization()
        const other = yield* Fixtures.organization()
        const { agent } = yield* Fixtures.agent(organization.id)
        const { agent: theirs } = yield* Fixtures.agent(other.id)
        const runs = yield* Runs
        const store = yield* RunStore
        const create = (
          mode: "webrtc" | "smallwebrtc" | "chat",
          org = organization.id,
          of = agent.public_id
        ) => Effect.either(runs.createConversation(org, of, { mode }))

        // an old session never opened no longer counts; one opened and in progress does
        const stale = yield* create("webrtc")
        const live = yield* create("smallwebrtc")
        yield* setNow("2026-03-01T09:02:01Z")
        yield* store.update(organization.id, Either.getOrThrow(live).workflow_run_id, {
          status: "in_progress"
        })
        expect(Either.isRight(stale)).toBe(true)
        for (let i = 0; i < BrowserSessionLimits.defaultMaxLive - 1; i++) {
          expect(Either.isRight(yield* create(i % 2 === 0 ? "webrtc" : "smallwebrtc"))).toBe(true)
        }
        const refused = yield* create("webrtc")
        expect(Either.isLeft(refused) && refused.left).toMatchObject({
          _tag: "BrowserSessionsBusy",
          limit: BrowserSessionLimits.defaultMaxLive,
          retry_after_seconds: BrowserSessionLimits.retryAfterSeconds
        })
        // chats are not sessions; another organization has its own count
        expect(Either.isRight(yield* create("chat"))).toBe(true)
        expect(Either.isRight(yield* create("webrtc", other.id, theirs.public_id))).toBe(true)
        // an ended session frees its place
        yield* store.update(organization.id, Either.getOrThrow(live).workflow_run_id, { status: "completed" })
        expect(Either.isRight(yield* create("webrtc"))).toBe(true)
      }).pipe(Effect.provide(engine))
  )
})
