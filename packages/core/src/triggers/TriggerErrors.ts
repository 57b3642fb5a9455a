import { Schema } from "effect"

/** No trigger of the caller's organization has this id (404). */
export class TriggerNotFound extends Schema.TaggedError<TriggerNotFound>()("TriggerNotFound", {
  trigger_id: Schema.String
}) {
  override get message() {
    return `Trigger ${this.trigger_id} not found`
  }
}

/** An archived trigger places no calls (409). */
export class TriggerArchived extends Schema.TaggedError<TriggerArchived>()("TriggerArchived", {
  trigger_id: Schema.String
}) {
  override get message() {
    return `trigger_archived: trigger ${this.trigger_id} is archived and places no calls; create a new trigger`
  }
}
