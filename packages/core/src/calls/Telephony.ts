import { Context, type Effect, Schema } from "effect"
import type { Agent, AgentDefinition } from "../agents/Agent.js"
import type { Run } from "../runs/Run.js"

/** Everything a voice runtime needs to dial and run one call. */
export interface OutboundCall {
  readonly run: Run
  readonly agent: Agent
  readonly definition: AgentDefinition
  /** The caller id (E.164) when the request chose one of the organization's numbers. */
  readonly from_phone_number: string | null
  /** The first message with `{{initial_context.*}}` filled in from the run's context. */
  readonly first_message: string
  /** The system prompt with `{{initial_context.*}}` filled in from the run's context. */
  readonly system_prompt: string
}

/** The voice runtime did not take the call (it is down or refused it). */
export class TelephonyUnavailable extends Schema.TaggedError<TelephonyUnavailable>()("TelephonyUnavailable", {
  reason: Schema.String
}) {
  override get message() {
    return `telephony_unavailable: the call could not be handed to the voice runtime (${this.reason})`
  }
}

/**
 * The voice runtime. `placeCall` hands a queued call over and returns once the runtime has taken it;
 * the call's progress comes back later as call events.
 */
export class Telephony extends Context.Tag("@voice-agent-platform/core/Telephony")<
  Telephony,
  { readonly placeCall: (call: OutboundCall) => Effect.Effect<void, TelephonyUnavailable> }
>() {}
