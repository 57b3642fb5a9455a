/**
 * Tools agents call, and the credentials HTTP API tools authenticate with. A tool's `definition` may
 * carry secrets (credential headers, an integration's `api_key`) and a credential's `secret` is one: both
 * columns hold text sealed by the SecretBox (`v1:` and base64), never plaintext.
 */
export const tools = [
  `CREATE TABLE tools (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tool_uuid text COLLATE "C" NOT NULL UNIQUE,
    organization_id bigint NOT NULL REFERENCES organizations (id),
    name text NOT NULL,
    description text,
    category text NOT NULL,
    icon text,
    icon_color text,
    status text NOT NULL CHECK (status IN ('active', 'archived')),
    definition text NOT NULL CHECK (definition LIKE 'v1:%'),
    -- the credential an HTTP API tool's (sealed) definition names, in the clear for "in use" checks
    credential_uuid text COLLATE "C",
    created_at timestamptz NOT NULL,
    updated_at timestamptz,
    created_by jsonb CHECK (created_by IS NULL OR jsonb_typeof(created_by) = 'object')
  )`,
  `CREATE INDEX tools_by_organization ON tools (organization_id, created_at DESC, id DESC)`,
  `CREATE INDEX tools_by_organization_status ON tools (organization_id, status, created_at DESC, id DESC)`,
  `CREATE INDEX tools_using_credential ON tools (organization_id, credential_uuid, created_at, id)
    WHERE status = 'active' AND credential_uuid IS NOT NULL`,
  `CREATE TABLE credentials (
    credential_uuid text COLLATE "C" PRIMARY KEY,
    organization_id bigint NOT NULL REFERENCES organizations (id),
    name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 255),
    kind text NOT NULL CHECK (kind IN ('bearer', 'basic', 'api_key_header')),
    header_name text,
    secret text NOT NULL CHECK (secret LIKE 'v1:%'),
    created_at timestamptz NOT NULL
  )`,
  `CREATE INDEX credentials_by_organization ON credentials (organization_id, created_at DESC, credential_uuid DESC)`
]
