import { useState } from "preact/hooks"
import type { Schema } from "../../api/Client.js"
import { ErrorNotice } from "../../components/Feedback.js"
import { idempotencyKey } from "../../data/idempotencyKey.js"
import { useAction } from "../../data/useAction.js"
import { api } from "../../session/Session.js"
import { formatMoney } from "../../text/Formats.js"

type NumberType = Schema<"NumberType">
type Quote = Schema<"PhoneNumberQuote">

/**
 * A Polish number: its price (activation fee plus the first month) compared with the balance, the top-up
 * needed when the balance is short; then ordered, once per quote (the order carries an idempotency key).
 */
export const PolishNumberOrder = ({
  onOrdered
}: {
  readonly onOrdered: (charge: Schema<"PhoneNumberCharge">) => void
}) => {
  const [numberType, setNumberType] = useState<NumberType>("mobile")
  const [quote, setQuote] = useState<{ readonly quote: Quote; readonly key: string } | undefined>(undefined)
  const quoting = useAction()
  const ordering = useAction()

  const getQuote = (event: Event) => {
    event.preventDefault()
    setQuote(undefined)
    ordering.clear()
    return quoting.run(async () => {
      const answer = await api.get("/api/v1/phone-numbers/polish/quote", {
        query: { number_type: numberType }
      })
      setQuote({ quote: answer, key: idempotencyKey() })
    })
  }

  const order = () =>
    ordering.run(async () => {
      if (quote === undefined) return
      const charge = await api.post("/api/v1/phone-numbers/polish/order", {
        body: { number_type: quote.quote.number_type },
        headers: { "idempotency-key": quote.key }
      })
      setQuote(undefined)
      onOrdered(charge)
    })

  return (
    <section aria-labelledby="order-heading" class="panel">
      <h2 id="order-heading">Order a Polish number</h2>
      <form class="stacked" onSubmit={getQuote}>
        <label for="order-type">Number type</label>
        <select
          id="order-type"
          value={numberType}
          onChange={(event) => {
            setNumberType(event.currentTarget.value as NumberType)
            setQuote(undefined)
          }}
        >
          <option value="mobile">Mobile</option>
          <option value="landline">Landline</option>
        </select>
        {quoting.error === undefined ? null : <ErrorNotice error={quoting.error} />}
        <div class="actions">
          <button type="submit" class="secondary" disabled={quoting.busy}>
            {quoting.busy ? "Reading the price…" : "Get a price"}
          </button>
        </div>
      </form>
      {quote === undefined ? null : (
        <div class="quote" role="group" aria-labelledby="quote-heading">
          <h3 id="quote-heading">A {quote.quote.number_type} number</h3>
          <dl class="figures">
            <div>
              <dt>Activation fee</dt>
              <dd>{formatMoney(quote.quote.activation_fee_pln)}</dd>
            </div>
            <div>
              <dt>Monthly fee</dt>
              <dd>{formatMoney(quote.quote.monthly_fee_pln)}</dd>
            </div>
            <div>
              <dt>Price now</dt>
              <dd>{formatMoney(quote.quote.price_pln)}</dd>
            </div>
            <div>
              <dt>Balance</dt>
              <dd>{formatMoney(quote.quote.balance_pln)}</dd>
            </div>
          </dl>
          {quote.quote.sufficient ? (
            <p>
              The balance covers it: ordering debits {formatMoney(quote.quote.price_pln)} and activates the
              number at once.
            </p>
          ) : (
            <p class="warning-notice">
              The balance is short: top up at least {formatMoney(quote.quote.top_up_pln)} before ordering.
            </p>
          )}
          {ordering.error === undefined ? null : (
            <ErrorNotice
              error={
                ordering.error.startsWith("no_inventory")
                  ? `${ordering.error} Request one below: it is then ordered from an operator.`
                  : ordering.error
              }
            />
          )}
          <div class="actions">
            <button type="button" onClick={order} disabled={ordering.busy || !quote.quote.sufficient}>
              {ordering.busy ? "Ordering…" : `Order for ${formatMoney(quote.quote.price_pln)}`}
            </button>
          </div>
        </div>
      )}
    </section>
  )
}
