/**
 * Secrets every server over one database must share and that nobody configures by hand (the download
 * links' signing secret), made by the first server that needs one. Encryption keys never live here.
 */
export const serverSecrets = [
  `CREATE TABLE server_secrets (
    name text PRIMARY KEY,
    value text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`
]
