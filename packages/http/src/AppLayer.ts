import type { HttpApi, HttpApp } from "@effect/platform"
import { HttpApiBuilder } from "@effect/platform"
import type { Services } from "@voice-agent-platform/core"
import {
  Agents,
  AgentStore,
  BlobStore,
  CallPlacement,
  Campaigns,
  Credentials,
  CredentialStore,
  DoNotCallList,
  DownloadLinks,
  IdempotencyStore,
  Improvements,
  IntegrationProvider,
  Integrations,
  KnowledgeBase,
  Organizations,
  OrganizationStore,
  OutboundHttp,
  OutboundPolicy,
  PhoneNumbers,
  Runs,
  RunStore,
  RuntimeCalls,
  RuntimeTools,
  ToolExecutor,
  Tools,
  ToolStore,
  Transactions,
  Triggers,
  Usage,
  Webhooks
} from "@voice-agent-platform/core"
import { Effect, Layer } from "effect"
import { AdminHandlers } from "./admin/AdminHandlers.js"
import { CallsHandlers } from "./calls/CallsHandlers.js"
import { ConversationsHandlers } from "./conversations/ConversationsHandlers.js"
import { CredentialsHandlers } from "./credentials/CredentialsHandlers.js"
import { DoNotCallHandlers } from "./do-not-call/DoNotCallHandlers.js"
import { FilesHandlers } from "./files/FilesHandlers.js"
import { IntegrationsHandlers } from "./integrations/IntegrationsHandlers.js"
import { KnowledgeBaseHandlers } from "./knowledge-base/KnowledgeBaseHandlers.js"
import { PhoneNumbersHandlers } from "./phone-numbers/PhoneNumbersHandlers.js"
import { ToolsHandlers } from "./tools/ToolsHandlers.js"
import { TriggersHandlers } from "./triggers/TriggersHandlers.js"
import { CampaignsHandlers } from "./campaigns/CampaignsHandlers.js"
import { RuntimeHandlers } from "./runtime/RuntimeHandlers.js"
import { UsageHandlers } from "./usage/UsageHandlers.js"
import { WebhooksHandlers } from "./webhooks/WebhooksHandlers.js"
import { AgentsHandlers } from "./agents/AgentsHandlers.js"
import { Api } from "@voice-agent-platform/contract/Api.js"
import * as DocsRoutes from "./docs/DocsRoutes.js"
import * as MetricsRoute from "./observability/MetricsRoute.js"
import * as RequestObservation from "./observability/RequestObservation.js"
import { HealthHandlers } from "./health/HealthHandlers.js"
import { ImprovementsHandlers } from "./improvements/ImprovementsHandlers.js"
import * as Authentication from "./middleware/Authentication.js"
import * as ErrorResponses from "./middleware/ErrorResponses.js"
import * as OperatorAuthentication from "./middleware/OperatorAuthentication.js"
import * as RequestDeadline from "./middleware/RequestDeadline.js"
import * as GroupContext from "./handler-context/GroupContext.js"
import * as RuntimeAuthentication from "./middleware/RuntimeAuthentication.js"
import * as NodeOutboundHttp from "./outbound/NodeOutboundHttp.js"

/**
 * What the API needs: the core's services and the ports they run on, the operator token, the secret
 * that signs download links (servers sharing a database must share it), and the outbound policy (a
 * webhook or tool URL naming a refused address is a 422).
 */
export type Requirements =
  | Services.Engine
  | OperatorAuthentication.AdminToken
  | DownloadLinks.LinkSigningKey
  | OutboundPolicy.OutboundPolicy

/** Tools run through the executor; no integration provider is installed (integration tools answer 422). */
const toolsHandlers = ToolsHandlers.pipe(
  Layer.provide(ToolExecutor.layer),
  Layer.provide(IntegrationProvider.layerNone)
)

/** A voice runtime's tool calls run through the same executor as the test endpoint. */
const runtimeHandlers = RuntimeHandlers.pipe(
  Layer.provide(RuntimeTools.layer),
  Layer.provide(ToolExecutor.layer),
  Layer.provide(IntegrationProvider.layerNone)
)

/**
 * The API as `layer`, with the outbound client tool calls go through left to the caller (tests inject
 * one with a fixed name resolver).
 */
export const layerWithOutbound: Layer.Layer<HttpApi.Api, never, Requirements | OutboundHttp.OutboundHttp> =
  Layer.mergeAll(
    DocsRoutes.layer,
    MetricsRoute.layer,
    // The response shaping wraps the deadline (its 503 gets X-Request-Id); the observation (span, metrics,
    // access log) wraps both, seeing the final status and request id. One API middleware for the three.
    RequestObservation.layer(
      Api,
      [DocsRoutes.docsPath, DocsRoutes.openApiPath, MetricsRoute.metricsPath],
      Effect.map(RequestDeadline.middleware, (deadline) => {
        const shape = ErrorResponses.make(Api)
        return (app: HttpApp.Default) => shape(deadline(app))
      })
    )
  ).pipe(
    Layer.provideMerge(
      HttpApiBuilder.api(Api).pipe(
        Layer.provide([
          GroupContext.only(HealthHandlers, [OrganizationStore.OrganizationStore]),
          GroupContext.only(AgentsHandlers, [Agents.Agents, Authentication.Authentication]),
          GroupContext.only(ImprovementsHandlers, [Improvements.Improvements, Authentication.Authentication]),
          GroupContext.only(CallsHandlers, [
            CallPlacement.CallPlacement,
            Triggers.Triggers,
            IdempotencyStore.IdempotencyStore,
            Authentication.Authentication
          ]),
          GroupContext.only(TriggersHandlers, [Triggers.Triggers, Authentication.Authentication]),
          GroupContext.only(CampaignsHandlers, [
            Campaigns.Campaigns,
            AgentStore.AgentStore,
            Authentication.Authentication
          ]),
          GroupContext.only(DoNotCallHandlers, [DoNotCallList.DoNotCallList, Authentication.Authentication]),
          GroupContext.only(ConversationsHandlers, [
            Runs.Runs,
            DownloadLinks.LinkSigningKey,
            Authentication.Authentication
          ]),
          GroupContext.only(FilesHandlers, [BlobStore.BlobStore, DownloadLinks.LinkSigningKey]),
          GroupContext.only(toolsHandlers, [
            Agents.Agents,
            Tools.Tools,
            CredentialStore.CredentialStore,
            OutboundPolicy.OutboundPolicy,
            OutboundHttp.OutboundHttp,
            Authentication.Authentication
          ]),
          GroupContext.only(CredentialsHandlers, [Credentials.Credentials, Authentication.Authentication]),
          GroupContext.only(IntegrationsHandlers, [Integrations.Integrations, Authentication.Authentication]),
          GroupContext.only(PhoneNumbersHandlers, [
            PhoneNumbers.PhoneNumbers,
            IdempotencyStore.IdempotencyStore,
            Authentication.Authentication
          ]),
          GroupContext.only(UsageHandlers, [Usage.Usage, Authentication.Authentication]),
          GroupContext.only(KnowledgeBaseHandlers, [
            KnowledgeBase.KnowledgeBase,
            Authentication.Authentication
          ]),
          GroupContext.only(WebhooksHandlers, [
            Webhooks.Webhooks,
            OutboundPolicy.OutboundPolicy,
            Authentication.Authentication
          ]),
          GroupContext.only(runtimeHandlers, [
            Agents.Agents,
            Tools.Tools,
            RuntimeCalls.RuntimeCalls,
            Transactions.Transactions,
            AgentStore.AgentStore,
            RunStore.RunStore,
            ToolStore.ToolStore,
            CredentialStore.CredentialStore,
            OutboundHttp.OutboundHttp,
            RuntimeAuthentication.RuntimeAuthentication
          ]),
          GroupContext.only(AdminHandlers, [
            Organizations.Organizations,
            PhoneNumbers.PhoneNumbers,
            OperatorAuthentication.OperatorAuthentication
          ])
        ]),
        Layer.provide([Authentication.layer, OperatorAuthentication.layer, RuntimeAuthentication.layer])
      )
    )
  )

/**
 * The API with every handler, the docs routes, the response shaping middleware and the per-request
 * deadline (30 s unless `RequestDeadline.setting` is provided). It needs the core
 * services and stores (e.g. `InMemory.layer`), the operator token, and an HTTP server to serve it; tool
 * calls go out through `NodeOutboundHttp` under the outbound policy.
 */
export const layer: Layer.Layer<HttpApi.Api, never, Requirements> = layerWithOutbound.pipe(
  Layer.provide(NodeOutboundHttp.layer)
)
