import { useState } from "preact/hooks"
import { ConfirmDialog } from "../../components/ConfirmDialog.js"
import { ErrorNotice, Loaded } from "../../components/Feedback.js"
import { PageHeading } from "../../components/PageHeading.js"
import { PagedTable } from "../../components/PagedTable.js"
import { useAction } from "../../data/useAction.js"
import { useLoad } from "../../data/useLoad.js"
import { navigate } from "../../routing/Location.js"
import { pageOf } from "../../routing/QueryState.js"
import type { ScreenProps } from "../../routing/Routes.js"
import { api } from "../../session/Session.js"
import { RunLink } from "../runs/RunLink.js"
import { formatCount, formatDateTime } from "../../text/Formats.js"
import { eventsOf, outcomeOf, type WebhookDelivery, type WebhookEndpoint } from "./WebhookEvents.js"

const pageSize = 20

/** An endpoint: what it receives, sending paused or resumed, deleted after a confirmation, and its delivery log. */
export const WebhookScreen = ({ params, query }: ScreenProps) => {
  const webhookId = params["webhookId"]!
  const page = pageOf(query)
  const endpoint = useLoad(
    (signal) => api.get("/api/v1/webhooks/{webhook_id}", { path: { webhook_id: webhookId }, signal }),
    [webhookId]
  )
  const deliveries = useLoad(
    (signal) =>
      api.get("/api/v1/webhooks/{webhook_id}/deliveries", {
        path: { webhook_id: webhookId },
        query: { page, limit: pageSize },
        signal
      }),
    [webhookId, page]
  )
  return (
    <>
      {/* a heading (and the window's title) while the webhook endpoint is read or could not be */}
      {endpoint.state === "ready" ? null : <PageHeading title="Webhook endpoint" />}
      <Loaded load={endpoint}>
        {(data) => (
          <>
            <EndpointHeading endpoint={data} onChanged={endpoint.reload} />
            <section aria-labelledby="deliveries-heading">
              <div class="section-heading">
                <h2 id="deliveries-heading">Delivery log</h2>
                <button type="button" class="secondary small" onClick={deliveries.reload}>
                  Refresh the log
                </button>
              </div>
              <Loaded load={deliveries} label="Loading the deliveries…">
                {(log) => (
                  <PagedTable<WebhookDelivery>
                    caption="Deliveries, newest first"
                    page={log}
                    rowKey={(delivery) => delivery.id}
                    empty="Nothing sent yet: events are logged here as they are delivered."
                    columns={[
                      { header: "Event", cell: (delivery) => delivery.event_type },
                      { header: "Outcome", cell: outcomeOf },
                      { header: "Attempts", cell: (delivery) => formatCount(delivery.attempts) },
                      {
                        header: "Next attempt",
                        cell: (delivery) => formatDateTime(delivery.next_attempt_at)
                      },
                      {
                        header: "Run",
                        cell: (delivery) =>
                          delivery.workflow_run_id === null ? (
                            "—"
                          ) : (
                            <RunLink runId={delivery.workflow_run_id} />
                          )
                      },
                      { header: "Created", cell: (delivery) => formatDateTime(delivery.created_at) },
                      { header: "Message id", cell: (delivery) => <code>{delivery.id}</code> }
                    ]}
                  />
                )}
              </Loaded>
            </section>
          </>
        )}
      </Loaded>
    </>
  )
}

const EndpointHeading = ({
  endpoint,
  onChanged
}: {
  readonly endpoint: WebhookEndpoint
  readonly onChanged: () => void
}) => {
  const [confirming, setConfirming] = useState(false)
  const change = useAction()
  const toggle = () =>
    change.run(async () => {
      await api.patch("/api/v1/webhooks/{webhook_id}", {
        path: { webhook_id: endpoint.id },
        body: { enabled: !endpoint.enabled }
      })
      onChanged()
    })
  const remove = () =>
    change.run(async () => {
      try {
        await api.delete("/api/v1/webhooks/{webhook_id}", { path: { webhook_id: endpoint.id } })
        navigate("webhooks")
      } finally {
        setConfirming(false)
      }
    })
  return (
    <>
      <PageHeading title="Webhook endpoint">
        <button type="button" class="secondary" onClick={toggle} disabled={change.busy}>
          {endpoint.enabled ? "Pause sending" : "Resume sending"}
        </button>
        <button type="button" class="secondary" onClick={() => setConfirming(true)}>
          Delete the endpoint
        </button>
      </PageHeading>
      {change.error === undefined ? null : <ErrorNotice error={change.error} />}
      <dl class="facts">
        <div>
          <dt>URL</dt>
          <dd>{endpoint.url}</dd>
        </div>
        <div>
          <dt>Events</dt>
          <dd>{eventsOf(endpoint.events)}</dd>
        </div>
        <div>
          <dt>Description</dt>
          <dd>{endpoint.description ?? "—"}</dd>
        </div>
        <div>
          <dt>Sending</dt>
          <dd>
            {endpoint.enabled
              ? "on"
              : "paused: it gets no new events, and what is pending waits until sending resumes"}
          </dd>
        </div>
        <div>
          <dt>Endpoint id</dt>
          <dd>
            <code>{endpoint.id}</code>
          </dd>
        </div>
        <div>
          <dt>Added</dt>
          <dd>{formatDateTime(endpoint.created_at)}</dd>
        </div>
      </dl>
      <ConfirmDialog
        open={confirming}
        title="Delete this endpoint?"
        confirmLabel={change.busy ? "Deleting…" : "Delete the endpoint"}
        busy={change.busy}
        onConfirm={remove}
        onCancel={() => setConfirming(false)}
      >
        <p>
          <span class="strong">{endpoint.url}</span> gets no more events; its delivery log is deleted, and
          deliveries still pending are not sent. This cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  )
}
