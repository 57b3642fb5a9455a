import { Context, Layer, Schema } from "effect"
import { MinorUnits } from "../money/Money.js"
import type { TokenUsage } from "./LanguageModel.js"

/**
 * What language-model tokens cost the organization: a price per million prompt tokens and per million
 * completion tokens, in PLN (`LLM_PRICE_PLN_PER_MTOK_IN`, `LLM_PRICE_PLN_PER_MTOK_OUT`, default 0).
 * Prices may have up to six decimals; anything finer is rounded to them.
 */
export const ModelPrice = Schema.Struct({
  pln_per_mtok_in: Schema.Number.pipe(Schema.nonNegative(), Schema.lessThanOrEqualTo(1_000_000)),
  pln_per_mtok_out: Schema.Number.pipe(Schema.nonNegative(), Schema.lessThanOrEqualTo(1_000_000))
}).annotations({ identifier: "ModelPrice" })
export type ModelPrice = typeof ModelPrice.Type

/** Tokens are free unless the operator sets a price. */
export const freeModel: ModelPrice = { pln_per_mtok_in: 0, pln_per_mtok_out: 0 }

/** The price tokens are charged at: configuration with a default, like `CallRates`. */
export class ModelPricing extends Context.Reference<ModelPricing>()(
  "@voice-agent-platform/core/ModelPricing",
  {
    defaultValue: (): ModelPrice => freeModel
  }
) {}

/** The given price; a price outside the schema is a defect. */
export const layer = (price: ModelPrice): Layer.Layer<ModelPricing> =>
  Layer.sync(ModelPricing, () => Schema.validateSync(ModelPrice)(price))

/** A PLN price as whole micro-PLN (six decimals), so sums are exact. */
const microPln = (pln: number): bigint => BigInt(Math.round(pln * 1_000_000))

/**
 * What `usage` costs at `price`, in grosze, rounded up to a whole grosz (a charge of any tokens at a
 * non-zero price is at least 1 grosz; no tokens, or a zero price, cost nothing). Exact integer arithmetic:
 * tokens × micro-PLN per million tokens is 10^-12 PLN, and a grosz is 10^10 of those.
 */
export const cost = (usage: TokenUsage, price: ModelPrice): MinorUnits => {
  const picoPln =
    BigInt(Math.max(0, Math.floor(usage.prompt_tokens))) * microPln(price.pln_per_mtok_in) +
    BigInt(Math.max(0, Math.floor(usage.completion_tokens))) * microPln(price.pln_per_mtok_out)
  const perGrosz = 10_000_000_000n
  return MinorUnits.make(Number((picoPln + perGrosz - 1n) / perGrosz))
}
