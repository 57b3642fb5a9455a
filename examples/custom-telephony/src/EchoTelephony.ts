import { CallEvents, Telephony, CallErrors } from "@voice-agent-platform/core"
import { Effect, FiberSet, Layer } from "effect"

/**
 * A voice runtime written against the `Telephony` port: where your SIP or WebRTC stack would dial, this
 * one "answers" at once, speaks the agent's first message, hears one line and hangs up, reporting each
 * step through `CallEvents` exactly as a real runtime would. Numbers ending in 0000 are refused, to show
 * `TelephonyUnavailable` (the API answers it 503).
 */
export const make = Effect.gen(function* () {
  const events = yield* CallEvents.CallEvents
  // calls run in fibers owned by the layer, not by the request that placed them
  const run = yield* FiberSet.makeRuntime<never, void, never>()

  const converse = (call: Telephony.OutboundCall) => {
    const report = (event: CallEvents.CallEvent) =>
      events.report(call.run.organization_id, call.run.workflow_run_id, event)
    return Effect.gen(function* () {
      yield* report({ type: "ringing" })
      yield* report({ type: "answered" })
      yield* report({ type: "fragment", role: "assistant", text: call.first_message, timestamp: new Date() })
      yield* Effect.sleep("100 millis")
      yield* report({
        type: "fragment",
        role: "user",
        text: "Echo runtime here, loud and clear.",
        timestamp: new Date()
      })
      yield* report({ type: "gathered", values: { heard: true } })
      yield* report({ type: "ended", status: "completed", duration_seconds: 1 })
    }).pipe(
      Effect.catchAll((error) => Effect.logWarning(`call ${call.run.workflow_run_id}: ${error.message}`))
    )
  }

  return Telephony.Telephony.of({
    placeCall: (call) =>
      call.run.phone_number?.endsWith("0000")
        ? Effect.fail(
            new CallErrors.TelephonyUnavailable({ reason: "the echo runtime refuses numbers ending in 0000" })
          )
        : Effect.sync(() => {
            run(converse(call))
          })
  })
})

/** The echo runtime, reporting through a `CallEvents` of its own over the host's stores. */
export const layer = Layer.scoped(Telephony.Telephony, make).pipe(Layer.provide(CallEvents.layer))
