/** The webhook tests' receiver, engine and organization. */
import { Effect, Layer, Ref } from "effect"
import { RunStore } from "../../src/runs/RunStore.js"
import type { WebhookRequest, WebhookResponse } from "../../src/webhooks/WebhookSender.js"
import { WebhookSender } from "../../src/webhooks/WebhookSender.js"
import * as Fixtures from "../../testing/Fixtures.js"
import { engine, setNow } from "../services/Engine.js"

export const firstPage = { page: 1, limit: 50 }

/** A receiver in memory: answers from a script (then 200), and keeps every request it got. */
export class Receiver extends Effect.Service<Receiver>()("test/Receiver", {
  effect: Effect.gen(function* () {
    const script = yield* Ref.make<ReadonlyArray<WebhookResponse>>([])
    const received = yield* Ref.make<ReadonlyArray<WebhookRequest>>([])
    return { script, received }
  })
}) {}

export const senderLayer = Layer.effect(
  WebhookSender,
  Effect.map(Receiver, ({ received, script }) => ({
    send: (request: WebhookRequest) =>
      Effect.gen(function* () {
        yield* Ref.update(received, (all) => [...all, request])
        const next = yield* Ref.modify(script, ([first, ...rest]) => [first, rest])
        return next ?? ({ _tag: "Answered", status: 200 } as const)
      })
  }))
)

export const testLayer = Layer.mergeAll(engine, senderLayer).pipe(Layer.provideMerge(Receiver.Default))

/** An organization with an agent and a queued phone run. */
export const setup = Effect.gen(function* () {
  yield* setNow("2026-02-10T11:00:00Z")
  const organization = yield* Fixtures.organization()
  const { agent } = yield* Fixtures.agent(organization.id)
  const run = yield* Effect.flatMap(RunStore, (runs) =>
    runs.insert(
      Fixtures.newRun(organization.id, agent.id, { initial_context: { secret_note: "do not leak" } }),
      Fixtures.epoch
    )
  )
  return { organization, agent, run }
})

export const received = Effect.flatMap(Receiver, ({ received }) => Ref.get(received))

export const events = Effect.map(received, (all) =>
  all.map((r) => (JSON.parse(r.body) as { type: string }).type)
)
