import { useState } from "preact/hooks"
import type { Schema } from "../../api/Client.js"
import { ConfirmDialog } from "../../components/ConfirmDialog.js"
import { ErrorNotice, Loaded } from "../../components/Feedback.js"
import { PageHeading } from "../../components/PageHeading.js"
import { PageControls } from "../../components/PagedTable.js"
import { useAction } from "../../data/useAction.js"
import { useLoad } from "../../data/useLoad.js"
import { navigate } from "../../routing/Location.js"
import { pageOf } from "../../routing/QueryState.js"
import type { ScreenProps } from "../../routing/Routes.js"
import { api } from "../../session/Session.js"
import { formatDateTime, textOf } from "../../text/Formats.js"
import { formatBytes, type KnowledgeDocument, processingOf } from "./DocumentFacts.js"

/** How many chunks a page shows. */
const chunksShown = 20

/** A document: what it is, its processing, the chunks its text was split into (a page at a time), deleted after a confirmation. */
export const DocumentScreen = ({ params, query }: ScreenProps) => {
  const documentId = params["documentId"]!
  const page = pageOf(query)
  const document = useLoad(
    (signal) =>
      api.get("/api/v1/knowledge-base/documents/{document_id}", {
        path: { document_id: documentId },
        signal
      }),
    [documentId]
  )
  const chunks = useLoad(
    (signal) =>
      api.get("/api/v1/knowledge-base/documents/{document_id}/chunks", {
        path: { document_id: documentId },
        query: { page, limit: chunksShown },
        signal
      }),
    [documentId, page]
  )
  return (
    <>
      {/* a heading (and the window's title) while the document is read or could not be */}
      {document.state === "ready" ? null : <PageHeading title="Document" />}
      <Loaded load={document}>
        {(data) => (
          <>
            <DocumentHeading document={data} />
            <DocumentFacts document={data} />
            <section aria-labelledby="chunks-heading">
              <h2 id="chunks-heading">Chunks</h2>
              <p class="hint">
                The pieces the text was split into (about 1,000 characters each, neighbours sharing up to
                100); agents read the ones most relevant to the conversation.
              </p>
              <Loaded load={chunks} label="Loading the chunks…">
                {(found) => <Chunks page={found} ready={data.processing_status === "completed"} />}
              </Loaded>
            </section>
          </>
        )}
      </Loaded>
    </>
  )
}

const DocumentHeading = ({ document }: { readonly document: KnowledgeDocument }) => {
  const [confirming, setConfirming] = useState(false)
  const remove = useAction()
  const confirm = () =>
    remove.run(async () => {
      try {
        await api.delete("/api/v1/knowledge-base/documents/{document_id}", {
          path: { document_id: document.document_uuid }
        })
        navigate("knowledge-base")
      } finally {
        setConfirming(false)
      }
    })
  return (
    <>
      <PageHeading title={document.filename}>
        <button type="button" class="secondary" onClick={() => setConfirming(true)}>
          Delete the document
        </button>
      </PageHeading>
      {remove.error === undefined ? null : <ErrorNotice error={`Not deleted: ${remove.error}`} />}
      <ConfirmDialog
        open={confirming}
        title="Delete this document?"
        confirmLabel={remove.busy ? "Deleting…" : "Delete the document"}
        busy={remove.busy}
        onConfirm={confirm}
        onCancel={() => setConfirming(false)}
      >
        <p>
          <span class="strong">{document.filename}</span>, its chunks and its stored file are deleted: agents
          no longer answer from it. This cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  )
}

const DocumentFacts = ({ document }: { readonly document: KnowledgeDocument }) => (
  <dl class="facts">
    <div>
      <dt>Processing</dt>
      <dd>{processingOf(document)}</dd>
    </div>
    <div>
      <dt>Type</dt>
      <dd>{document.mime_type}</dd>
    </div>
    <div>
      <dt>Size</dt>
      <dd>{formatBytes(document.file_size_bytes)}</dd>
    </div>
    <div>
      <dt>Uploaded</dt>
      <dd>{formatDateTime(document.created_at)}</dd>
    </div>
    <div>
      <dt>Document id</dt>
      <dd>
        <code>{String(document.id)}</code> (given to agents' <code>knowledge_base_document_ids</code>)
      </dd>
    </div>
    <div>
      <dt>SHA-256</dt>
      <dd>
        <code>{document.file_hash}</code>
      </dd>
    </div>
    {document.source_url === null ? null : (
      <div>
        <dt>Source</dt>
        <dd>{document.source_url}</dd>
      </div>
    )}
    {Object.keys(document.custom_metadata).length === 0 ? null : (
      <div>
        <dt>Metadata</dt>
        <dd>{textOf(document.custom_metadata)}</dd>
      </div>
    )}
  </dl>
)

const Chunks = ({
  page,
  ready
}: {
  readonly page: Schema<"KnowledgeBaseDocumentChunkPage">
  readonly ready: boolean
}) => (
  <>
    {page.items.length === 0 ? (
      <p class="empty">
        {ready ? "This page is past the last chunk." : "No chunks until the document is read."}
      </p>
    ) : (
      <ol class="chunks" start={page.items[0]!.chunk_index + 1}>
        {page.items.map((chunk) => (
          <li key={chunk.chunk_index}>
            <p class="prose passage">{chunk.text}</p>
          </li>
        ))}
      </ol>
    )}
    <PageControls
      label="Chunks"
      page={page.page}
      totalPages={page.total_pages}
      totalCount={page.total_count}
    />
  </>
)
