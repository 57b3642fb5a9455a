import { Schema } from "effect"
import { MinorUnits } from "../money/Money.js"

/** The organization does not exist (or is not the caller's). */
export class OrganizationNotFound extends Schema.TaggedError<OrganizationNotFound>()("OrganizationNotFound", {
  organization_id: Schema.Int
}) {
  override get message() {
    return `Organization ${this.organization_id} not found`
  }
}

/** A debit larger than the balance; `top_up` is what must be added first. */
export class InsufficientBalance extends Schema.TaggedError<InsufficientBalance>()("InsufficientBalance", {
  balance: MinorUnits,
  required: MinorUnits,
  top_up: MinorUnits
}) {
  override get message() {
    return `insufficient_balance: ${(this.required / 100).toFixed(2)} PLN is needed and the balance is ${(this.balance / 100).toFixed(2)} PLN; top up at least ${(this.top_up / 100).toFixed(2)} PLN`
  }
}

/** No key of the organization has this id (another organization's key looks the same). */
export class ApiKeyNotFound extends Schema.TaggedError<ApiKeyNotFound>()("ApiKeyNotFound", {
  api_key_id: Schema.Number
}) {
  override get message() {
    return `API key ${this.api_key_id} not found`
  }
}

/** Revoking the key would leave the organization without an active key: nothing could sign in again (409). */
export class LastActiveApiKey extends Schema.TaggedError<LastActiveApiKey>()("LastActiveApiKey", {
  api_key_id: Schema.Number
}) {
  override get message() {
    return `last_active_key: API key ${this.api_key_id} is the organization's only active key; create another key before revoking it`
  }
}
