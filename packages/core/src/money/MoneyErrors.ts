import { Schema } from "effect"

/** Why a decimal amount cannot be turned into minor units. */
export class InvalidMoneyAmount extends Schema.TaggedError<InvalidMoneyAmount>()("InvalidMoneyAmount", {
  amount: Schema.Number,
  reason: Schema.Literal("not_finite", "too_many_decimals", "out_of_range")
}) {
  override get message(): string {
    switch (this.reason) {
      case "not_finite":
        return `Amount ${this.amount} is not a finite number`
      case "too_many_decimals":
        return `Amount ${this.amount} has more than 2 decimal places`
      case "out_of_range":
        return `Amount ${this.amount} is outside the supported range`
    }
  }
}
