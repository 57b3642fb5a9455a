import { Clock, Duration, Effect, Option } from "effect"
import type { OrganizationId } from "../organizations/Organization.js"
import type { RunId } from "../runs/RunId.js"
import { RunStore } from "../runs/RunStore.js"
import { Transactions } from "../storage/Transactions.js"
import { Carrier, type CallPrice } from "./Carrier.js"

/**
 * What the carrier charged for a call, kept in its run's logs (`Carrier price (twilio): 0.013 USD`) once
 * known. A carrier settles the price after the call has ended (Twilio: seconds to minutes), so it is read
 * after the end, never while the carrier waits for a webhook's answer: in the background, at once and then
 * every `retryInterval` until it is known or `deadline` passed, each read bounded by `readTimeout`. The line
 * is written once however many readers find it (the final status callback's, the final status read's).
 * The run's `cost` is the platform's own rate; this line is for the operator's reconciliation.
 */

/** How a price reads in the run's logs. */
export const priceMessage = (provider: string, price: CallPrice): string =>
  `Carrier price (${provider}): ${price.amount} ${price.currency}`

const pricePrefix = "Carrier price ("

/** Between reads of a price not settled yet. */
export const retryInterval = Duration.seconds(10)

/** After this, from the end, the price is not read any more. */
export const deadline = Duration.minutes(2)

/** One read's bound. */
export const readTimeout = Duration.seconds(5)

/**
 * Appends an `info` line to the run's logs, ended or not (`CallEvents` refuses a log after the end),
 * unless a line of the run already starts with `unlessPrefix`: one transaction, the run held.
 */
export const appendLogOnce = (
  organizationId: OrganizationId,
  runId: RunId,
  message: string,
  unlessPrefix: string
) =>
  Effect.gen(function* () {
    const runs = yield* RunStore
    const transactions = yield* Transactions
    yield* transactions.run(
      Effect.gen(function* () {
        const run = yield* runs.findForUpdate(organizationId, runId)
        if (Option.isNone(run) || run.value.logs.some((l) => l.message.startsWith(unlessPrefix))) return
        const timestamp = new Date(yield* Clock.currentTimeMillis)
        yield* runs.update(organizationId, runId, {
          logs: [...run.value.logs, { timestamp, level: "info", message }]
        })
      })
    )
  })

/** Appends the price line to the run's logs (ended or not) unless it has one. */
export const keep = (organizationId: OrganizationId, runId: RunId, provider: string, price: CallPrice) =>
  appendLogOnce(organizationId, runId, priceMessage(provider, price), pricePrefix)

/** Reads the call's price until it is known (then keeps it) or `deadline` passed. Never fails. */
export const follow = (organizationId: OrganizationId, runId: RunId, callId: string) =>
  Effect.gen(function* () {
    const carrier = yield* Carrier
    const start = yield* Clock.currentTimeMillis
    for (;;) {
      const price = yield* carrier.callPrice(callId).pipe(
        Effect.timeout(readTimeout),
        Effect.orElseSucceed(() => null)
      )
      if (price !== null) return yield* keep(organizationId, runId, carrier.provider, price)
      const elapsed = (yield* Clock.currentTimeMillis) - start
      if (elapsed + Duration.toMillis(retryInterval) > Duration.toMillis(deadline)) return
      yield* Effect.sleep(retryInterval)
    }
  }).pipe(
    Effect.catchAllCause((cause) =>
      Effect.logWarning(`the carrier's price of run ${runId} was not kept`, cause)
    ),
    Effect.withSpan("CarrierPrice.follow", { attributes: { run: runId } })
  )
