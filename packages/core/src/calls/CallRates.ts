import { Context, Layer, Schema } from "effect"
import { MinorUnits } from "../money/Money.js"

/** What a call costs: a price per minute in grosze, charged in whole billing increments. */
export const CallRate = Schema.Struct({
  /** Grosze per minute of talk (25 = 0.25 PLN/min). */
  per_minute: MinorUnits.pipe(Schema.nonNegative()),
  /** The billing step in seconds: 60 bills every started minute, 1 bills by the second. */
  increment_seconds: Schema.Int.pipe(Schema.between(1, 3600))
}).annotations({ identifier: "CallRate" })
export type CallRate = typeof CallRate.Type

/** 0.25 PLN a minute, every started minute billed in full. */
export const defaultCallRate: CallRate = { per_minute: MinorUnits.make(25), increment_seconds: 60 }

/**
 * The rate calls are charged at: configuration provided by the host. Unlike a port it has a default
 * (`defaultCallRate`), so a host that does not set prices needs to provide nothing.
 */
export class CallRates extends Context.Reference<CallRates>()("@voice-agent-platform/core/CallRates", {
  defaultValue: (): CallRate => defaultCallRate
}) {}

/** The given rate; a rate outside the schema (a negative price, a zero increment) is a defect. */
export const layer = (rate: CallRate): Layer.Layer<CallRates> =>
  Layer.sync(CallRates, () => Schema.validateSync(CallRate)(rate))
