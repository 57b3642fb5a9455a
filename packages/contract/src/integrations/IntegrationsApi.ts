import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import * as IntegrationConnection from "@voice-agent-platform/core/integrations/IntegrationConnection.js"
import { Schema } from "effect"
import { NotFound } from "../errors/ApiErrors.js"
import { Authentication } from "../middleware/Authentication.js"
import { JsonObject, strict } from "../shared/Json.js"
import { PageOf, PageQuery } from "../shared/Pagination.js"
import { Timestamp } from "../shared/Timestamp.js"

/** One sign-in provider and whether this deployment has an OAuth client for it. */
export const OAuthProviderResponse = Schema.Struct({
  provider: Schema.String,
  name: Schema.String,
  configured: Schema.Boolean
}).annotations({ identifier: "OAuthProvider" })

/** `GET /integrations/oauth/providers`. */
export const OAuthProvidersResponse = Schema.Struct({
  providers: Schema.Array(OAuthProviderResponse)
}).annotations({ identifier: "OAuthProviders" })

/** An integration connection as the API shows it: secrets in `config` masked, `auth_error` `{}` when none. */
const { id, provider, name: connectionName, enabled } = IntegrationConnection.IntegrationConnection.fields

export const ConnectionResponse = Schema.Struct({
  id,
  provider,
  name: connectionName,
  config: JsonObject,
  enabled,
  created_at: Timestamp,
  updated_at: Timestamp,
  auth_error: JsonObject
}).annotations({ identifier: "IntegrationConnection" })

const optional = <S extends Schema.Schema.Any>(schema: S) => Schema.optionalWith(schema, { exact: true })
const name = Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(255))

/** `POST /integrations`. */
export const CreateConnectionRequest = strict(
  Schema.Struct({
    provider: Schema.String.pipe(
      Schema.pattern(/^[a-z0-9][a-z0-9_-]{0,49}$/, {
        message: () => "expected a provider id: lower-case letters, digits, '_' or '-', at most 50"
      })
    ),
    name,
    config: optional(JsonObject),
    enabled: optional(Schema.Boolean)
  }).annotations({ identifier: "CreateIntegrationConnectionRequest" })
)

/** `PUT /integrations/{connection_id}`: every field optional; omitted fields stay unchanged. */
export const UpdateConnectionRequest = strict(
  Schema.Struct({
    name: optional(name),
    config: optional(JsonObject),
    enabled: optional(Schema.Boolean)
  }).annotations({ identifier: "UpdateIntegrationConnectionRequest" })
)

const connectionPath = Schema.Struct({
  connection_id: Schema.String.annotations({ description: "The connection's id (`conn_...`)" })
})

const secretsNote =
  'A `config` value is returned only when it is known not to be secret: null, a boolean, or a string or number under a key ending in id, name, email, url, uri, endpoint, domain, host, region, scope(s), timezone, locale, language, version, enabled, type, mode, environment, user or username (not under a key naming a token, secret, password or api_key), unless it looks like a credential (`Bearer …`, `Basic …`, a URL with user info, a query or a fragment). Every other value reads back as `"****"`.'

/** Integration connections and the OAuth providers this deployment supports. */
export class IntegrationsApi extends HttpApiGroup.make("integrations")
  .add(
    HttpApiEndpoint.get("oauthProviders", "/integrations/oauth/providers")
      .addSuccess(OAuthProvidersResponse)
      .annotateContext(
        OpenApi.annotations({
          summary: "Oauth Providers",
          description:
            "Lists which sign-in providers this deployment has an OAuth client for: every known provider (google, microsoft, hubspot, salesforce, calendly) with `configured`, plus any other provider the operator configured. Configuration of the deployment (`OAUTH_<PROVIDER>_CLIENT_ID`); none is configured by default."
        })
      )
  )
  .add(
    HttpApiEndpoint.post("create", "/integrations")
      .setPayload(CreateConnectionRequest)
      .addSuccess(ConnectionResponse)
      .annotateContext(
        OpenApi.annotations({
          summary: "Create Connection",
          description: `Creates a connection to an outside provider. \`config\` defaults to \`{}\`, \`enabled\` to true; the id is \`conn_\` + 20 letters and digits. ${secretsNote}`
        })
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/integrations")
      .setUrlParams(PageQuery)
      .addSuccess(PageOf(ConnectionResponse, "IntegrationConnectionPage"))
      .annotateContext(
        OpenApi.annotations({
          summary: "List Connections",
          description: `The organization's connections, newest first. ${secretsNote}`
        })
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/integrations/:connection_id")
      .setPath(connectionPath)
      .addSuccess(ConnectionResponse)
      .addError(NotFound)
      .annotateContext(
        OpenApi.annotations({ summary: "Get Connection", description: `One connection. ${secretsNote}` })
      )
  )
  .add(
    HttpApiEndpoint.put("update", "/integrations/:connection_id")
      .setPath(connectionPath)
      .setPayload(UpdateConnectionRequest)
      .addSuccess(ConnectionResponse)
      .addError(NotFound)
      .annotateContext(
        OpenApi.annotations({
          summary: "Update Connection",
          description: `Updates the given fields; omitted fields stay unchanged. A \`config\` replaces the stored one whole, except that a value sent back as \`"****"\` where the stored one reads as \`"****"\` keeps its stored value, so the config read from this API can be sent back as it is. A new \`config\` clears \`auth_error\`. ${secretsNote}`
        })
      )
  )
  .add(
    HttpApiEndpoint.del("delete", "/integrations/:connection_id")
      .setPath(connectionPath)
      .addSuccess(HttpApiSchema.NoContent)
      .addError(NotFound)
      .annotateContext(
        OpenApi.annotations({
          summary: "Delete Connection",
          description: "Deletes the connection and its stored settings; answers 204."
        })
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1") {}
