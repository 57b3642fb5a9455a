/**
 * Knowledge-base documents and their chunks. A chunk belongs to its document's organization and goes with
 * the document.
 */
export const knowledgeBase: ReadonlyArray<string> = [
  `CREATE TABLE documents (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    document_uuid text NOT NULL UNIQUE,
    organization_id bigint NOT NULL REFERENCES organizations (id),
    filename text NOT NULL,
    file_size_bytes bigint NOT NULL CHECK (file_size_bytes >= 0),
    file_hash text NOT NULL,
    mime_type text NOT NULL,
    processing_status text NOT NULL CHECK (processing_status IN ('pending', 'processing', 'completed', 'failed')),
    total_chunks integer NOT NULL CHECK (total_chunks >= 0),
    custom_metadata jsonb NOT NULL CHECK (jsonb_typeof(custom_metadata) = 'object'),
    parser_metadata jsonb NOT NULL CHECK (jsonb_typeof(parser_metadata) = 'object'),
    blob_key text NOT NULL,
    created_by bigint,
    is_active boolean NOT NULL,
    processing_error text,
    source_url text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    UNIQUE (organization_id, id)
  )`,
  `CREATE INDEX documents_by_organization ON documents (organization_id, created_at DESC, id DESC)`,
  `CREATE TABLE document_chunks (
    document_id bigint NOT NULL,
    organization_id bigint NOT NULL REFERENCES organizations (id),
    "index" integer NOT NULL CHECK ("index" >= 0),
    text text NOT NULL,
    PRIMARY KEY (document_id, "index"),
    FOREIGN KEY (organization_id, document_id) REFERENCES documents (organization_id, id) ON DELETE CASCADE
  )`
]
