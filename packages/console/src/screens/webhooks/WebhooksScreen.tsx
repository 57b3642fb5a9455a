import { Loaded } from "../../components/Feedback.js"
import { PageHeading } from "../../components/PageHeading.js"
import { PagedTable } from "../../components/PagedTable.js"
import { useLoad } from "../../data/useLoad.js"
import { Link } from "../../routing/Link.js"
import { pageOf } from "../../routing/QueryState.js"
import type { ScreenProps } from "../../routing/Routes.js"
import { api } from "../../session/Session.js"
import { formatDateTime } from "../../text/Formats.js"
import { CreateWebhook } from "./CreateWebhook.js"
import { eventsOf, type WebhookEndpoint, webhookPath } from "./WebhookEvents.js"

const pageSize = 20

/** The organization's webhook endpoints (newest first), and a new one added. */
export const WebhooksScreen = ({ query }: ScreenProps) => {
  const page = pageOf(query)
  const endpoints = useLoad(
    (signal) => api.get("/api/v1/webhooks", { query: { page, limit: pageSize }, signal }),
    [page]
  )
  return (
    <>
      <PageHeading title="Webhooks" />
      <p class="prose">
        Addresses of yours that the platform tells when calls start, end, are analysed or erased, and when
        campaigns run. Each endpoint's page has its delivery log.
      </p>
      <CreateWebhook onCreated={endpoints.reload} />
      <section aria-labelledby="endpoints-heading">
        <h2 id="endpoints-heading">Endpoints</h2>
        <Loaded load={endpoints}>
          {(data) => (
            <PagedTable<WebhookEndpoint>
              caption="Webhook endpoints"
              page={data}
              rowKey={(endpoint) => endpoint.id}
              empty="No endpoints yet: add one above."
              columns={[
                {
                  header: "URL",
                  cell: (endpoint) => (
                    <Link to={webhookPath(endpoint.id)}>
                      <span class="url-text">{endpoint.url}</span>
                    </Link>
                  )
                },
                { header: "Events", cell: (endpoint) => eventsOf(endpoint.events) },
                { header: "Description", cell: (endpoint) => endpoint.description ?? "—" },
                { header: "Sending", cell: (endpoint) => (endpoint.enabled ? "on" : "paused") },
                { header: "Added", cell: (endpoint) => formatDateTime(endpoint.created_at) }
              ]}
            />
          )}
        </Loaded>
      </section>
    </>
  )
}
