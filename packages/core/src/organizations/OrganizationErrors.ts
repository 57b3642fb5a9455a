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
