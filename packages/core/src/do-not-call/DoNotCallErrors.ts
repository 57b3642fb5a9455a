import { Schema } from "effect"

/** Removing a number that is not on the organization's Do not call list (404). */
export class DoNotCallEntryNotFound extends Schema.TaggedError<DoNotCallEntryNotFound>()(
  "DoNotCallEntryNotFound",
  { phone_number: Schema.String }
) {
  override get message() {
    return `${this.phone_number} is not on the organization's Do not call list`
  }
}
