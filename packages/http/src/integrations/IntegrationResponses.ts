import type { IntegrationConnection } from "@voice-agent-platform/core"
import { ConfigSecrets } from "@voice-agent-platform/core"
import type { ConnectionResponse } from "@voice-agent-platform/contract/integrations/IntegrationsApi.js"

/** A connection in the API's shape: secrets in `config` masked, no auth error as `{}`. */
export const connectionResponse = (
  connection: IntegrationConnection.IntegrationConnection
): typeof ConnectionResponse.Type => ({
  id: connection.id,
  provider: connection.provider,
  name: connection.name,
  config: ConfigSecrets.masked(connection.config),
  enabled: connection.enabled,
  created_at: connection.created_at,
  updated_at: connection.updated_at,
  auth_error: connection.auth_error ?? {}
})
