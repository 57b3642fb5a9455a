import { Data } from "effect"
import type { OutboundFailureCategory } from "./OutboundHttp.js"

/** A name that did not resolve. */
export class ResolutionFailed extends Data.TaggedError("ResolutionFailed")<{ readonly detail: string }> {}

/**
 * A request that got no answer. `category` is what tenants see; `detail` is for the operator's logs
 * only (it may name internal addresses).
 */
export class OutboundFailure extends Data.TaggedError("OutboundFailure")<{
  readonly category: OutboundFailureCategory
  readonly detail: string
}> {}
