import { Clock, Duration, Effect, FiberSet, Layer } from "effect"
import type { CallEvent } from "./CallEvents.js"
import * as CallEvents from "./CallEvents.js"
import * as SimulatedCall from "./SimulatedCall.js"
import { SimulationConfig } from "./SimulationConfig.js"
import type { OutboundCall } from "./Telephony.js"
import { Telephony } from "./Telephony.js"
import * as WavFile from "./WavFile.js"

/**
 * The built-in voice runtime: every placed call plays a `SimulatedCall` script in a fiber of its own,
 * reporting through `CallEvents`, timed by Effect's `Clock` (so `TestClock` drives it in tests). Its
 * length is `SimulationConfig.call_seconds`.
 *
 * The call fibers belong to the layer: when the layer's scope closes (the server shuts down), calls still
 * running are interrupted, and each reports a warning log and `ended failed` with the talk time so far, so
 * that no run is left live holding a channel.
 */
export const make = Effect.gen(function* () {
  const events = yield* CallEvents.CallEvents
  const { call_seconds } = yield* SimulationConfig
  // Forks into the layer's scope with the layer's context, not the caller's (an HTTP request).
  const run = yield* FiberSet.makeRuntime<never, void, never>()

  const simulate = (call: OutboundCall) => {
    const { organization_id: organizationId, workflow_run_id: runId } = call.run
    const report = (event: CallEvent) => events.report(organizationId, runId, event)
    let answeredAt: number | null = null
    let ended = false

    const play = Effect.gen(function* () {
      const placedAt = yield* Clock.currentTimeMillis
      const steps = SimulatedCall.script(SimulatedCall.inputOf(call, call_seconds, new Date(placedAt)))
      for (const { at_ms, event } of steps) {
        const wait = placedAt + at_ms - (yield* Clock.currentTimeMillis)
        if (wait > 0) yield* Effect.sleep(Duration.millis(wait))
        const now = yield* Clock.currentTimeMillis
        switch (event.type) {
          case "fragment":
            yield* report({ ...event, timestamp: new Date(now) })
            break
          case "recording":
            yield* report({ type: "recording", bytes: WavFile.generate(event.seconds) })
            break
          default:
            if (event.type === "answered") answeredAt = now
            if (event.type === "ended") ended = true
            yield* report(event)
        }
      }
    })

    /** The runtime stops mid-call: the call is cut, and says so. */
    const cut = Effect.gen(function* () {
      if (ended) return
      const now = yield* Clock.currentTimeMillis
      yield* report({ type: "log", level: "warning", message: "The voice runtime stopped during the call" })
      yield* report({
        type: "ended",
        status: "failed",
        duration_seconds: answeredAt === null ? 0 : (now - answeredAt) / 1000
      })
    }).pipe(Effect.ignore)

    // A call whose run was ended by someone else (or removed) simply stops: there is nothing left to report.
    return play.pipe(
      Effect.onInterrupt(() => cut),
      Effect.catchAll((error) =>
        Effect.logDebug(`simulated call ${runId} stopped: ${error.message}`).pipe(Effect.asVoid)
      )
    )
  }

  return Telephony.of({
    placeCall: (call) =>
      Effect.sync(() => {
        run(simulate(call))
      })
  })
})

/** The simulated runtime over `CallEvents` from the environment. */
export const layerWithEvents: Layer.Layer<Telephony, never, CallEvents.CallEvents> = Layer.scoped(
  Telephony,
  make
)

/**
 * The simulated runtime over the host's stores, file storage and configuration; it reports through a
 * `CallEvents` of its own (the service is stateless: everything it keeps is in storage).
 */
export const layer = layerWithEvents.pipe(Layer.provide(CallEvents.layer))
