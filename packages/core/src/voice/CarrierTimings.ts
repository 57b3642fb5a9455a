import { Context, Duration } from "effect"

/**
 * When the engine asks the carrier instead of waiting for its callbacks (`CarrierDialOutcome`,
 * `CarrierFinalStatus`). The defaults suit Twilio; the bundled server reads them from
 * `CARRIER_LOST_DIAL_CHECK_SECONDS` and `CARRIER_FINAL_STATUS_CHECK_SECONDS` (tests shorten them).
 */
export interface Timings {
  /** After a dial's answer was lost, the first look-up for its call; later ones come 3 times as far apart. */
  readonly lostDialCheck: Duration.Duration
  /**
   * After a call's conversation ended, how long its final status callback is waited for before the call
   * is read from the carrier; later reads come twice as far apart.
   */
  readonly finalStatusCheck: Duration.Duration
}

export const defaults: Timings = {
  lostDialCheck: Duration.seconds(5),
  finalStatusCheck: Duration.seconds(15)
}

/** The bounds a configured timing must keep, in seconds (fractions allowed). */
export const bounds = { min: 0.01, max: 600 } as const

export class CarrierTimings extends Context.Reference<CarrierTimings>()(
  "@voice-agent-platform/core/CarrierTimings",
  { defaultValue: (): Timings => defaults }
) {}
