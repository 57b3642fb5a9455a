import type { Credential } from "@voice-agent-platform/core"
import type { CredentialResponse } from "@voice-agent-platform/contract/credentials/CredentialsApi.js"

/** A credential in the API's shape: the secret stays behind. */
export const credentialResponse = (credential: Credential.Credential): typeof CredentialResponse.Type => ({
  credential_uuid: credential.credential_uuid,
  name: credential.name,
  kind: credential.kind,
  header_name: credential.header_name,
  has_secret: true,
  created_at: credential.created_at
})
