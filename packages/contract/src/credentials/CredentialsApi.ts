import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import * as Credential from "@voice-agent-platform/core/tools/Credential.js"
import * as CredentialRequest from "@voice-agent-platform/core/tools/CredentialRequest.js"
import { Schema } from "effect"
import { Conflict, NotFound } from "../errors/ApiErrors.js"
import { Authentication } from "../middleware/Authentication.js"
import { strict } from "../shared/Json.js"
import { PageOf, PageQuery } from "../shared/Pagination.js"
import { Timestamp } from "../shared/Timestamp.js"

/** A credential as the API shows it: everything but the secret, which is never returned. */
// The core's fields where the wire shows them unchanged (its `name` carries the request's length bounds).
const { credential_uuid, kind, header_name } = Credential.Credential.fields

export const CredentialResponse = Schema.Struct({
  credential_uuid,
  name: Schema.String,
  kind,
  header_name,
  has_secret: Schema.Boolean,
  created_at: Timestamp
}).annotations({ identifier: "Credential" })

/** `POST /credentials`. */
export const CreateCredentialRequest = strict(
  CredentialRequest.CreateCredentialRequest.annotations({ identifier: "CreateCredentialRequest" })
)

const credentialPath = Schema.Struct({
  credential_uuid: Schema.String.annotations({ description: "The credential's `credential_uuid`" })
})

/** Stored credentials for HTTP API tools; secrets are never returned. */
export class CredentialsApi extends HttpApiGroup.make("credentials")
  .add(
    HttpApiEndpoint.post("create", "/credentials")
      .setPayload(CreateCredentialRequest)
      .addSuccess(CredentialResponse)
      .annotateContext(
        OpenApi.annotations({
          summary: "Create Credential",
          description:
            "Stores a secret for HTTP API tools to authenticate with (`credential_uuid` in their config). `bearer` sends `Authorization: Bearer <secret>`; `basic` takes `username:password` as the secret; `api_key_header` sends the secret in `header_name`, which it requires (the other kinds refuse it). The secret is never returned: responses show `has_secret: true`."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/credentials")
      .setUrlParams(PageQuery)
      .addSuccess(PageOf(CredentialResponse, "CredentialPage"))
      .annotateContext(
        OpenApi.annotations({
          summary: "List Credentials",
          description: "The organization's credentials, newest first, without their secrets."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/credentials/:credential_uuid")
      .setPath(credentialPath)
      .addSuccess(CredentialResponse)
      .addError(NotFound)
      .annotateContext(
        OpenApi.annotations({ summary: "Get Credential", description: "One credential, without its secret." })
      )
  )
  .add(
    HttpApiEndpoint.del("delete", "/credentials/:credential_uuid")
      .setPath(credentialPath)
      .addSuccess(HttpApiSchema.NoContent)
      .addError(NotFound)
      .addError(Conflict)
      .annotateContext(
        OpenApi.annotations({
          summary: "Delete Credential",
          description:
            "Deletes the credential and its secret; answers 204. A credential that active tools use answers 409 naming those tools: archive them or point them at another credential first."
        })
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1") {}
