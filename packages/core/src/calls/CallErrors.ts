import { Schema } from "effect"

/** The number is on the organization's Do not call list: a permanent refusal (403). */
export class DoNotCallListed extends Schema.TaggedError<DoNotCallListed>()("DoNotCallListed", {
  phone_number: Schema.String
}) {
  override get message() {
    return `do_not_call: ${this.phone_number} is on the organization's Do not call list`
  }
}

/** It is outside 08:00-21:00 somewhere the number may ring (409); `retry_at` is the earliest allowed instant. */
export class OutsideCallingHours extends Schema.TaggedError<OutsideCallingHours>()("OutsideCallingHours", {
  phone_number: Schema.String,
  retry_at: Schema.DateFromSelf,
  retry_after_seconds: Schema.Int,
  time_zones: Schema.Array(Schema.String)
}) {
  override get message() {
    return `Calls to ${this.phone_number} are allowed only between 08:00 and 21:00 in the recipient's local time (${this.time_zones.join(", ")}); retry at ${this.retry_at.toISOString()}`
  }
}

/** Every outbound channel of the organization is busy (429); retry after `retry_after_seconds`. */
export class ChannelsBusy extends Schema.TaggedError<ChannelsBusy>()("ChannelsBusy", {
  outbound_channels: Schema.Int,
  retry_after_seconds: Schema.Int
}) {
  override get message() {
    return `All ${this.outbound_channels} outbound channels of the organization are busy; retry after ${this.retry_after_seconds} seconds`
  }
}

/**
 * The call has no number to call from (422, before any run is created): a real carrier needs a caller id,
 * and the request chose none, the organization has no active number and the deployment no default
 * (`TWILIO_DEFAULT_FROM`).
 */
export class NoCallerId extends Schema.TaggedError<NoCallerId>()("NoCallerId", {}) {
  override get message() {
    return "no_caller_id: there is no number to call from: choose one of the organization's numbers with from_phone_number_id, give the organization an active number, or set TWILIO_DEFAULT_FROM"
  }
}

/** Bytes that are not a PCM WAV file; `reason` says what is wrong. */
export class InvalidWav extends Schema.TaggedError<InvalidWav>()("InvalidWav", { reason: Schema.String }) {
  override get message() {
    return `Not a PCM WAV file: ${this.reason}`
  }
}

/** The voice runtime did not take the call (it is down or refused it). */
export class TelephonyUnavailable extends Schema.TaggedError<TelephonyUnavailable>()("TelephonyUnavailable", {
  reason: Schema.String
}) {
  override get message() {
    return `telephony_unavailable: the call could not be handed to the voice runtime (${this.reason})`
  }
}

/** A run that has ended makes no more tool calls (409). */
export class RunEndedNoToolCalls extends Schema.TaggedError<RunEndedNoToolCalls>()("RunEndedNoToolCalls", {
  workflow_run_id: Schema.Number,
  status: Schema.String
}) {
  override get message() {
    return `run_ended: run ${this.workflow_run_id} has ended (${this.status}); it makes no more tool calls`
  }
}

/** A run has made as many tool calls as one run may (409); the call was not made. */
export class ToolCallLimitReached extends Schema.TaggedError<ToolCallLimitReached>()("ToolCallLimitReached", {
  workflow_run_id: Schema.Number,
  limit: Schema.Int
}) {
  override get message() {
    return `tool_call_limit: run ${this.workflow_run_id} has made ${this.limit} tool calls, the most one run may make`
  }
}
