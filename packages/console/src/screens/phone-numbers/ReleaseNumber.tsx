import { useState } from "preact/hooks"
import type { Schema } from "../../api/Client.js"
import { ConfirmDialog } from "../../components/ConfirmDialog.js"
import { ErrorNotice } from "../../components/Feedback.js"
import { useAction } from "../../data/useAction.js"
import { api } from "../../session/Session.js"
import { formatCount, formatDateTime, formatMoney } from "../../text/Formats.js"

/**
 * Releasing a number: its release quote is read first (the fee for the months left of its minimum
 * period) and shown in the question; the number is released only once the person agrees to that fee.
 */
export const ReleaseNumber = ({
  number,
  onReleased
}: {
  readonly number: Schema<"PhoneNumber">
  readonly onReleased: (charge: Schema<"PhoneNumberCharge">) => void
}) => {
  const [quote, setQuote] = useState<(Schema<"ReleaseQuote"> & { readonly balance_pln: number }) | undefined>(
    undefined
  )
  const asking = useAction()
  const releasing = useAction()
  const path = { phone_number_id: number.id }
  const ask = () =>
    asking.run(async () => {
      releasing.clear()
      const [fee, organization] = await Promise.all([
        api.get("/api/v1/phone-numbers/{phone_number_id}/release-quote", { path }),
        api.get("/api/v1/organization", {})
      ])
      setQuote({ ...fee, balance_pln: organization.balance_pln })
    })
  const release = () =>
    releasing.run(async () => {
      const charge = await api.post("/api/v1/phone-numbers/{phone_number_id}/release", { path })
      setQuote(undefined)
      onReleased(charge)
    })
  return (
    <>
      <button type="button" class="secondary small" onClick={ask} disabled={asking.busy}>
        {asking.busy ? "Reading the fee…" : "Release"}
        <span class="visually-hidden"> {number.number}</span>
      </button>
      {asking.error === undefined ? null : <ErrorNotice error={asking.error} />}
      <ConfirmDialog
        open={quote !== undefined}
        title={`Release ${number.number}?`}
        confirmLabel={quote === undefined ? "Release" : `Release for ${formatMoney(quote.fee_pln)}`}
        cancelLabel="Keep the number"
        busy={releasing.busy}
        onConfirm={release}
        onCancel={() => setQuote(undefined)}
      >
        {quote === undefined ? null : (
          <>
            <p>
              The number is given back at once: calls from it stop, and it may go to someone else.
              {quote.fee_pln === 0
                ? " Its minimum period has passed: releasing it costs nothing."
                : ` Its minimum period runs until ${formatDateTime(quote.commitment_until)}: releasing it now costs the ${formatCount(
                    quote.periods
                  )} months left.`}
            </p>
            <dl class="facts">
              <div>
                <dt>Release fee</dt>
                <dd>{formatMoney(quote.fee_pln)}</dd>
              </div>
              <div>
                <dt>Months charged</dt>
                <dd>{formatCount(quote.periods)}</dd>
              </div>
              <div>
                <dt>Minimum period until</dt>
                <dd>{formatDateTime(quote.commitment_until)}</dd>
              </div>
              <div>
                <dt>Balance</dt>
                <dd>{formatMoney(quote.balance_pln)}</dd>
              </div>
            </dl>
            {quote.fee_pln > quote.balance_pln ? (
              <p class="warning-notice">
                The balance is short: top up at least {formatMoney(quote.fee_pln - quote.balance_pln)} before
                releasing it.
              </p>
            ) : null}
          </>
        )}
        {releasing.error === undefined ? null : <ErrorNotice error={releasing.error} />}
      </ConfirmDialog>
    </>
  )
}
