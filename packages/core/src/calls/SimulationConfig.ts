import { Context, Effect, Layer } from "effect"

/** How the built-in simulated voice runtime behaves. */
export interface Simulation {
  /** The talk time of a simulated call in seconds; fractions allowed (tests use a fraction of a second). */
  readonly call_seconds: number
}

/** A simulated call talks for 4 seconds unless configured otherwise. */
export const defaultCallSeconds = 4

/** The longest a simulated call may talk: an hour. */
export const maxCallSeconds = 3600

/** True for a usable call length: more than 0 and at most `maxCallSeconds`. */
export const isValidCallSeconds = (seconds: number): boolean =>
  Number.isFinite(seconds) && seconds > 0 && seconds <= maxCallSeconds

/**
 * The simulated runtime's settings (`SIM_CALL_SECONDS` in the bundled server): configuration with a
 * default, so a host that does not care needs to provide nothing.
 */
export class SimulationConfig extends Context.Reference<SimulationConfig>()(
  "@voice-agent-platform/core/SimulationConfig",
  { defaultValue: (): Simulation => ({ call_seconds: defaultCallSeconds }) }
) {}

/** Simulated calls of `callSeconds`; a length outside (0, 3600] is a defect. */
export const layer = (callSeconds: number): Layer.Layer<SimulationConfig> =>
  Layer.effect(
    SimulationConfig,
    isValidCallSeconds(callSeconds)
      ? Effect.succeed({ call_seconds: callSeconds })
      : Effect.dieMessage(
          `The simulated call length must be more than 0 and at most ${maxCallSeconds} seconds`
        )
  )
