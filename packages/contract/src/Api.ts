import { HttpApi, OpenApi } from "@effect/platform"
import { flow } from "effect"
import { AdminApi } from "./admin/AdminApi.js"
import { AgentsApi } from "./agents/AgentsApi.js"
import { ApiKeysApi } from "./organizations/ApiKeysApi.js"
import { CallsApi } from "./calls/CallsApi.js"
import { CampaignsApi } from "./campaigns/CampaignsApi.js"
import { ConversationsApi } from "./conversations/ConversationsApi.js"
import { RunsApi } from "./conversations/RunsApi.js"
import { ChatsApi } from "./chats/ChatsApi.js"
import { CredentialsApi } from "./credentials/CredentialsApi.js"
import * as ServerAndLicense from "./docs/ServerAndLicense.js"
import * as UnknownSchemaIds from "./docs/UnknownSchemaIds.js"
import * as ValidationResponses from "./docs/ValidationResponses.js"
import { DoNotCallApi } from "./do-not-call/DoNotCallApi.js"
import { ValidationError } from "./errors/ApiErrors.js"
import { FilesApi } from "./files/FilesApi.js"
import { HealthApi } from "./health/HealthApi.js"
import { ImprovementsApi } from "./improvements/ImprovementsApi.js"
import { IntegrationsApi } from "./integrations/IntegrationsApi.js"
import { KnowledgeBaseApi } from "./knowledge-base/KnowledgeBaseApi.js"
import { OrganizationApi } from "./organizations/OrganizationApi.js"
import { PhoneNumbersApi } from "./phone-numbers/PhoneNumbersApi.js"
import { ToolsApi } from "./tools/ToolsApi.js"
import { TriggersApi } from "./triggers/TriggersApi.js"
import { RuntimeApi } from "./runtime/RuntimeApi.js"
import { UsageApi } from "./usage/UsageApi.js"
import { WebhooksApi } from "./webhooks/WebhooksApi.js"

/** The whole REST API: one group per resource. Typed clients and the OpenAPI document come from it. */
export class Api extends HttpApi.make("voice-agent-platform")
  .add(HealthApi)
  .add(AgentsApi)
  .add(ImprovementsApi)
  .add(CallsApi)
  .add(TriggersApi)
  .add(CampaignsApi)
  .add(DoNotCallApi)
  .add(ConversationsApi)
  .add(RunsApi)
  .add(ChatsApi)
  .add(FilesApi)
  .add(ToolsApi)
  .add(CredentialsApi)
  .add(IntegrationsApi)
  .add(PhoneNumbersApi)
  .add(UsageApi)
  .add(KnowledgeBaseApi)
  .add(WebhooksApi)
  .add(OrganizationApi)
  .add(ApiKeysApi)
  .add(RuntimeApi)
  .add(AdminApi)
  .addError(ValidationError)
  .annotate(OpenApi.Title, "Voice Agent Platform API")
  .annotate(OpenApi.Version, "1.0.0")
  .annotate(
    OpenApi.Description,
    "The public REST API for voice agents. Every `/api/v1` route needs the organization's API key in `X-API-Key`. Errors are `{detail}`; validation errors are 422 `{detail: [{loc, msg, type}]}`."
  )
  // The generated document, corrected to what the server does and what OpenAPI tools require.
  .annotate(
    OpenApi.Transform,
    flow(ValidationResponses.documentAs422, UnknownSchemaIds.remove, ServerAndLicense.withServerAndLicense)
  ) {}
