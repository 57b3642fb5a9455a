import { useState } from "preact/hooks"
import type { Schema } from "../../api/Client.js"
import { ConfirmDialog } from "../../components/ConfirmDialog.js"
import { ErrorNotice, Loaded } from "../../components/Feedback.js"
import { PageHeading } from "../../components/PageHeading.js"
import { PagedTable } from "../../components/PagedTable.js"
import { useAction } from "../../data/useAction.js"
import { useFocusWhen } from "../../data/useFocusWhen.js"
import { useLoad } from "../../data/useLoad.js"
import { pageOf } from "../../routing/QueryState.js"
import type { ScreenProps } from "../../routing/Routes.js"
import { api, isSignedInWithPrefix } from "../../session/Session.js"
import { formatDateTime } from "../../text/Formats.js"
import { CreateApiKey } from "./CreateApiKey.js"

type ApiKey = Schema<"ApiKey">

const pageSize = 20

/**
 * The organization's API keys (revoked ones included, newest first): a new key made (shown once), a key
 * revoked after a confirmation (the API refuses the last active key, and says why).
 */
export const ApiKeysScreen = ({ query }: ScreenProps) => {
  const page = pageOf(query)
  const keys = useLoad(
    (signal) => api.get("/api/v1/api-keys", { query: { page, limit: pageSize }, signal }),
    [page]
  )
  const [revoking, setRevoking] = useState<ApiKey | undefined>(undefined)
  const [revoked, setRevoked] = useState<string | undefined>(undefined)
  const revoke = useAction()
  // the revoked key's button is gone: once the dialog has closed (the page is inert while it is open),
  // the focus goes to the message saying it is revoked
  const revokedNotice = useFocusWhen<HTMLParagraphElement>(revoked !== undefined && revoking === undefined)

  const confirmRevoke = () => {
    const key = revoking
    if (key === undefined) return
    return revoke.run(async () => {
      try {
        await api.delete("/api/v1/api-keys/{api_key_id}", { path: { api_key_id: key.api_key_id } })
        setRevoked(`The key ${key.name} (${key.prefix}…) is revoked: the API refuses it from now on.`)
        keys.reload()
      } finally {
        setRevoking(undefined)
      }
    })
  }

  return (
    <>
      <PageHeading title="API keys" />
      <p class="prose">
        Programs and this console reach the API with a key of the organization, sent in the{" "}
        <code>X-API-Key</code> header. A key is shown once, when it is made; only its first characters are
        listed here.
      </p>
      <CreateApiKey
        onCreated={() => {
          setRevoked(undefined)
          revoke.clear()
          keys.reload()
        }}
      />
      <section aria-labelledby="keys-heading">
        <h2 id="keys-heading">The organization's keys</h2>
        {revoke.error === undefined ? null : <ErrorNotice error={`Not revoked: ${revoke.error}`} />}
        <p class="status-line" role="status" tabIndex={-1} ref={revokedNotice}>
          {revoked ?? ""}
        </p>
        <Loaded load={keys}>
          {(data) => (
            <PagedTable<ApiKey>
              caption="API keys"
              page={data}
              rowKey={(key) => key.api_key_id}
              empty="No keys."
              columns={[
                { header: "Name", cell: (key) => key.name },
                { header: "Starts with", cell: (key) => <code>{key.prefix}…</code> },
                { header: "Created", cell: (key) => formatDateTime(key.created_at) },
                {
                  header: "Last used",
                  cell: (key) => (key.last_used_at === null ? "Never" : formatDateTime(key.last_used_at))
                },
                {
                  header: "Status",
                  cell: (key) =>
                    key.revoked_at === null ? "Active" : `Revoked ${formatDateTime(key.revoked_at)}`
                },
                {
                  header: "Actions",
                  cell: (key) =>
                    key.revoked_at === null ? (
                      <button
                        type="button"
                        class="secondary small"
                        aria-label={`Revoke ${key.name}`}
                        onClick={() => {
                          revoke.clear()
                          setRevoked(undefined)
                          setRevoking(key)
                        }}
                      >
                        Revoke
                      </button>
                    ) : (
                      "—"
                    )
                }
              ]}
            />
          )}
        </Loaded>
      </section>
      <ConfirmDialog
        open={revoking !== undefined}
        title="Revoke this key?"
        confirmLabel={revoke.busy ? "Revoking…" : "Revoke the key"}
        busy={revoke.busy}
        onConfirm={confirmRevoke}
        onCancel={() => setRevoking(undefined)}
      >
        {revoking === undefined ? null : (
          <>
            <p>
              <span class="strong">{revoking.name}</span> (<code>{revoking.prefix}…</code>) stops working at
              once, on every server: every program that uses it is refused from its next request. This cannot
              be undone.
            </p>
            {isSignedInWithPrefix(revoking.prefix) ? (
              <p>
                This console is signed in with a key that starts with <code>{revoking.prefix}</code>: if it is
                this one, the console signs out.
              </p>
            ) : null}
          </>
        )}
      </ConfirmDialog>
    </>
  )
}
