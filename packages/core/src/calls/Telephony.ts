import { Context, type Effect } from "effect"
import type { Agent, AgentDefinition } from "../agents/Agent.js"
import type { Run } from "../runs/Run.js"
import { TelephonyUnavailable } from "./CallErrors.js"

/** Everything a voice runtime needs to dial and run one call. */
export interface OutboundCall {
  readonly run: Run
  readonly agent: Agent
  readonly definition: AgentDefinition
  /**
   * The caller id (E.164): the number the request chose among the organization's; with a runtime that
   * needs one (`Telephony.callerId`), else the organization's first active number, else the runtime's
   * default. Null when the request chose none and the runtime needs none (the simulator).
   */
  readonly from_phone_number: string | null
  /** The first message with `{{initial_context.*}}` filled in from the run's context. */
  readonly first_message: string
  /** The system prompt with `{{initial_context.*}}` filled in from the run's context. */
  readonly system_prompt: string
}

/** A runtime that needs a caller id for every call (a real carrier) says so, with the deployment's default. */
export interface CallerIdRule {
  /** The number to call from when neither the request nor the organization gives one; null: none. */
  readonly fallback: string | null
}

/**
 * The voice runtime. `placeCall` hands a queued call over and returns once the runtime has taken it;
 * the call's progress comes back later as call events. A runtime with a `callerId` rule gets a caller id
 * on every call: `CallPlacement` refuses a call it has none for (`NoCallerId`) before creating a run.
 *
 * The hand-off is interruptible by default: should the request placing the call go away (or the server
 * stop) meanwhile, `CallPlacement` ends the run `failed` and gives its channel back. A runtime whose
 * hand-off cannot be taken back once begun (a dial sent to a carrier may have made the phone ring) sets
 * `shieldedHandOff`: its `placeCall` then runs to its end whoever goes away, and must bound its own wait.
 */
export class Telephony extends Context.Tag("@voice-agent-platform/core/Telephony")<
  Telephony,
  {
    readonly placeCall: (call: OutboundCall) => Effect.Effect<void, TelephonyUnavailable>
    readonly callerId?: CallerIdRule
    /** `placeCall` runs uninterruptibly (see above). Default false. */
    readonly shieldedHandOff?: boolean
  }
>() {}
