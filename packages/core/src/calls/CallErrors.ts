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
