import { useState } from "preact/hooks"
import type { Schema } from "../../api/Client.js"
import { Loaded } from "../../components/Feedback.js"
import { PageHeading } from "../../components/PageHeading.js"
import { PagedTable } from "../../components/PagedTable.js"
import { useLoad } from "../../data/useLoad.js"
import { pageOf } from "../../routing/QueryState.js"
import type { ScreenProps } from "../../routing/Routes.js"
import { api } from "../../session/Session.js"
import { formatDateTime, formatMoney } from "../../text/Formats.js"
import { NumberRequests } from "./NumberRequests.js"
import { PolishNumberOrder } from "./PolishNumberOrder.js"
import { ReleaseNumber } from "./ReleaseNumber.js"

const pageSize = 20

/**
 * The organization's phone numbers (active and released, a page at a time in the address) with the
 * balance; a Polish number quoted against the balance and ordered; demand registered when none is left;
 * a number released after its release fee is shown.
 */
export const PhoneNumbersScreen = ({ query }: ScreenProps) => {
  const page = pageOf(query)
  const numbers = useLoad(
    (signal) => api.get("/api/v1/phone-numbers", { query: { page, limit: pageSize }, signal }),
    [page]
  )
  const organization = useLoad((signal) => api.get("/api/v1/organization", { signal }), [])
  const [said, setSaid] = useState("")
  const changed = (message: string) => {
    setSaid(message)
    numbers.reload()
    organization.reload()
  }
  return (
    <>
      <PageHeading title="Phone numbers" />
      <p class="balance">
        Balance:{" "}
        <strong>{organization.state === "ready" ? formatMoney(organization.data.balance_pln) : "…"}</strong>
      </p>
      <p class="status-line" role="status">
        {said}
      </p>
      <Loaded load={numbers}>
        {(data) => (
          <PagedTable<Schema<"PhoneNumber">>
            caption="The organization's numbers"
            page={data}
            rowKey={(number) => number.id}
            empty="The organization has no number yet: order one below."
            columns={[
              { header: "Number", cell: (number) => number.number },
              { header: "Type", cell: (number) => number.number_type },
              { header: "Status", cell: (number) => number.status },
              { header: "Activated", cell: (number) => formatDateTime(number.activated_at) },
              { header: "Released", cell: (number) => formatDateTime(number.released_at) },
              {
                header: "Actions",
                cell: (number) =>
                  number.status === "active" ? (
                    <ReleaseNumber
                      number={number}
                      onReleased={(charge) =>
                        changed(
                          `${number.number} was released; ${formatMoney(charge.charged_pln)} was charged.`
                        )
                      }
                    />
                  ) : (
                    "—"
                  )
              }
            ]}
          />
        )}
      </Loaded>
      <PolishNumberOrder
        onOrdered={(charge) =>
          changed(`${charge.phone_number.number} is yours; ${formatMoney(charge.charged_pln)} was charged.`)
        }
      />
      <NumberRequests />
    </>
  )
}
