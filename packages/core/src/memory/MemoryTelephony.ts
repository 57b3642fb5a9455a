import { Context, Effect, Layer } from "effect"
import type { OutboundCall } from "../calls/Telephony.js"
import { Telephony } from "../calls/Telephony.js"
import { TelephonyUnavailable } from "../calls/CallErrors.js"

/**
 * A telephony that only remembers the calls handed to it: nothing rings. For tests of call placement
 * and for embedding before a voice runtime is wired; `setAvailable(false)` makes it refuse calls.
 */
export class RecordedCalls extends Context.Tag("@voice-agent-platform/core/RecordedCalls")<
  RecordedCalls,
  {
    readonly calls: Effect.Effect<ReadonlyArray<OutboundCall>>
    readonly setAvailable: (available: boolean) => Effect.Effect<void>
  }
>() {}

/** The recording telephony and its inspector. */
export const layer: Layer.Layer<Telephony | RecordedCalls> = Layer.effectContext(
  Effect.sync(() => {
    const calls: Array<OutboundCall> = []
    let available = true
    return Context.make(Telephony, {
      placeCall: (call) =>
        Effect.suspend(() => {
          if (!available)
            return Effect.fail(new TelephonyUnavailable({ reason: "the runtime refuses calls" }))
          calls.push(call)
          return Effect.void
        })
    }).pipe(
      Context.add(RecordedCalls, {
        calls: Effect.sync(() => [...calls]),
        setAvailable: (value) =>
          Effect.sync(() => {
            available = value
          })
      })
    )
  })
)
