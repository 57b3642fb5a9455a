import { useEffect } from "preact/hooks"
import { Loaded } from "../../components/Feedback.js"
import { PageHeading } from "../../components/PageHeading.js"
import { PagedTable } from "../../components/PagedTable.js"
import { useLoad } from "../../data/useLoad.js"
import { Link } from "../../routing/Link.js"
import { pageOf } from "../../routing/QueryState.js"
import type { ScreenProps } from "../../routing/Routes.js"
import { api } from "../../session/Session.js"
import { formatDateTime } from "../../text/Formats.js"
import {
  documentPath,
  formatBytes,
  type KnowledgeDocument,
  processingOf,
  stillProcessing
} from "./DocumentFacts.js"
import { KnowledgeSearch } from "./KnowledgeSearch.js"
import { UploadDocument } from "./UploadDocument.js"

const pageSize = 20
/** How often the list looks again while a document is being read. */
const pollMs = 1500

/**
 * The knowledge base: a document uploaded (with its progress), the documents a page at a time with their
 * processing (looked at again until every one is read), and a search through them.
 */
export const KnowledgeBaseScreen = ({ query }: ScreenProps) => {
  const page = pageOf(query)
  const documents = useLoad(
    (signal) => api.get("/api/v1/knowledge-base/documents", { query: { page, limit: pageSize }, signal }),
    [page]
  )
  const processing = documents.state === "ready" && stillProcessing(documents.data.items)
  useEffect(() => {
    if (!processing || documents.refreshing) return
    const timer = setTimeout(documents.reload, pollMs)
    return () => clearTimeout(timer)
  }, [processing, documents.refreshing])
  return (
    <>
      <PageHeading title="Knowledge base" />
      <p class="prose">
        Documents agents answer from: an agent given a document reads its passages most relevant to what the
        caller says.
      </p>
      <UploadDocument onUploaded={documents.reload} />
      <section aria-labelledby="documents-heading">
        <h2 id="documents-heading">Documents</h2>
        <Loaded load={documents}>
          {(data) => (
            <PagedTable<KnowledgeDocument>
              caption="Documents"
              page={data}
              rowKey={(document) => document.document_uuid}
              empty="No documents yet: upload one above."
              columns={[
                {
                  header: "File",
                  cell: (document) => (
                    <Link to={documentPath(document.document_uuid)}>{document.filename}</Link>
                  )
                },
                { header: "Processing", cell: processingOf },
                { header: "Size", cell: (document) => formatBytes(document.file_size_bytes) },
                { header: "Uploaded", cell: (document) => formatDateTime(document.created_at) }
              ]}
            />
          )}
        </Loaded>
      </section>
      <KnowledgeSearch words={(query.get("q") ?? "").trim()} />
    </>
  )
}
