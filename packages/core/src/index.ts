/**
 * @voice-agent-platform/core: the domain of the Voice Agent Platform API.
 *
 * Models and pure rules need nothing but their inputs; services are Effect layers over ports; every
 * port has an in-memory adapter (see `InMemory`).
 */

// Shared building blocks
export * as Money from "./money/Money.js"
export * as Page from "./pagination/Page.js"
export * as RandomIds from "./randomness/RandomIds.js"
export * as SecureRandom from "./randomness/SecureRandom.js"
export * as Stores from "./storage/Stores.js"
export * as Transactions from "./storage/Transactions.js"

// Organizations and API keys
export * as ApiKey from "./organizations/ApiKey.js"
export * as ApiKeyStore from "./organizations/ApiKeyStore.js"
export * as Organization from "./organizations/Organization.js"
export * as OrganizationErrors from "./organizations/OrganizationErrors.js"
export * as Organizations from "./organizations/Organizations.js"
export * as OrganizationStore from "./organizations/OrganizationStore.js"

// Agents
export * as Agent from "./agents/Agent.js"
export * as AgentErrors from "./agents/AgentErrors.js"
export * as AgentFromScript from "./agents/AgentFromScript.js"
export * as AgentIds from "./agents/AgentIds.js"
export * as Agents from "./agents/Agents.js"
export * as AgentStore from "./agents/AgentStore.js"
export * as CallScript from "./agents/CallScript.js"
export * as PromptWriter from "./agents/PromptWriter.js"
export * as ScriptAnalysis from "./agents/ScriptAnalysis.js"

// Improvements
export * as Improvement from "./improvements/Improvement.js"
export * as ImprovementDecision from "./improvements/ImprovementDecision.js"
export * as ImprovementErrors from "./improvements/ImprovementErrors.js"
export * as Improvements from "./improvements/Improvements.js"
export * as ImprovementStore from "./improvements/ImprovementStore.js"

// Calls: gates, channels, telephony
export * as CallCost from "./calls/CallCost.js"
export * as CallErrors from "./calls/CallErrors.js"
export * as CallEventErrors from "./calls/CallEventErrors.js"
export * as CallEvents from "./calls/CallEvents.js"
export * as CallReclaim from "./calls/CallReclaim.js"
export * as CallFragmentStore from "./calls/CallFragmentStore.js"
export * as CallProgress from "./calls/CallProgress.js"
export * as CallRates from "./calls/CallRates.js"
export * as CallingHours from "./calling-hours/CallingHours.js"
export * as CallPlacement from "./calls/CallPlacement.js"
export * as ChannelStore from "./calls/ChannelStore.js"
export * as OutboundChannels from "./calls/OutboundChannels.js"
export * as OverdueCalls from "./calls/OverdueCalls.js"
export * as RuntimeCalls from "./calls/RuntimeCalls.js"
export * as SimulatedCall from "./calls/SimulatedCall.js"
export * as SimulatedTelephony from "./calls/SimulatedTelephony.js"
export * as SimulationConfig from "./calls/SimulationConfig.js"
export * as Telephony from "./calls/Telephony.js"
export * as WavFile from "./calls/WavFile.js"
export * as TimeZoneCandidates from "./calling-hours/TimeZoneCandidates.js"
export * as DoNotCallEntry from "./do-not-call/DoNotCallEntry.js"
export * as DoNotCallErrors from "./do-not-call/DoNotCallErrors.js"
export * as DoNotCallList from "./do-not-call/DoNotCallList.js"
export * as DoNotCallStore from "./do-not-call/DoNotCallStore.js"

// Idempotency keys
export * as IdempotencyKey from "./idempotency/IdempotencyKey.js"
export * as IdempotencyRecord from "./idempotency/IdempotencyRecord.js"
export * as IdempotencyRule from "./idempotency/IdempotencyRule.js"
export * as IdempotencyStore from "./idempotency/IdempotencyStore.js"
export * as RequestFingerprint from "./idempotency/RequestFingerprint.js"

// Triggers
export * as Trigger from "./triggers/Trigger.js"
export * as TriggerContext from "./triggers/TriggerContext.js"
export * as TriggerErrors from "./triggers/TriggerErrors.js"
export * as Triggers from "./triggers/Triggers.js"
export * as TriggerStore from "./triggers/TriggerStore.js"

// Runs and transcripts
export * as Run from "./runs/Run.js"
export * as RunErrors from "./runs/RunErrors.js"
export * as RunId from "./runs/RunId.js"
export * as Runs from "./runs/Runs.js"
export * as RunStore from "./runs/RunStore.js"
export * as InitialContextTemplate from "./templates/InitialContextTemplate.js"
export * as Transcript from "./transcripts/Transcript.js"
export * as TranscriptFile from "./transcripts/TranscriptFile.js"
export * as Transcripts from "./transcripts/Transcripts.js"
export * as TranscriptTurns from "./transcripts/TranscriptTurns.js"
export * as BlobStore from "./files/BlobStore.js"
export * as DownloadLinks from "./files/DownloadLinks.js"
export * as Housekeeping from "./housekeeping/Housekeeping.js"
export * as Retention from "./files/Retention.js"
export * as RetentionSweep from "./files/RetentionSweep.js"

// Phone numbers
export * as E164 from "./phone-numbers/E164.js"
export * as NumberPricing from "./phone-numbers/NumberPricing.js"
export * as PhoneNumber from "./phone-numbers/PhoneNumber.js"
export * as PhoneNumberErrors from "./phone-numbers/PhoneNumberErrors.js"
export * as PhoneNumbers from "./phone-numbers/PhoneNumbers.js"
export * as PhoneNumberStore from "./phone-numbers/PhoneNumberStore.js"
export * as PriceListConfig from "./phone-numbers/PriceListConfig.js"
export * as PriceQuote from "./phone-numbers/PriceQuote.js"
export * as ReleaseQuote from "./phone-numbers/ReleaseQuote.js"

// Tools, knowledge base, campaigns, integrations, usage
export * as Campaign from "./campaigns/Campaign.js"
export * as CampaignStore from "./campaigns/CampaignStore.js"
export * as Credential from "./tools/Credential.js"
export * as CredentialRequest from "./tools/CredentialRequest.js"
export * as Credentials from "./tools/Credentials.js"
export * as CredentialStore from "./tools/CredentialStore.js"
export * as Document from "./knowledge-base/Document.js"
export * as DocumentStore from "./knowledge-base/DocumentStore.js"
export * as Chunking from "./knowledge-base/Chunking.js"
export * as DocumentText from "./knowledge-base/DocumentText.js"
export * as KnowledgeBase from "./knowledge-base/KnowledgeBase.js"
export * as KnowledgeBaseErrors from "./knowledge-base/KnowledgeBaseErrors.js"
export * as KnowledgeBaseSearch from "./knowledge-base/Search.js"
export * as ConfigSecrets from "./integrations/ConfigSecrets.js"
export * as IntegrationConnection from "./integrations/IntegrationConnection.js"
export * as IntegrationErrors from "./integrations/IntegrationErrors.js"
export * as Integrations from "./integrations/Integrations.js"
export * as IntegrationStore from "./integrations/IntegrationStore.js"
export * as OAuthProviders from "./integrations/OAuthProviders.js"
export * as OAuthProvidersConfig from "./integrations/OAuthProvidersConfig.js"
export * as Tool from "./tools/Tool.js"
export * as ToolDefinition from "./tools/ToolDefinition.js"
export * as ToolErrors from "./tools/ToolErrors.js"
export * as Tools from "./tools/Tools.js"
export * as ToolStore from "./tools/ToolStore.js"
export * as ToolUpdate from "./tools/ToolUpdate.js"
export * as UsageRecord from "./usage/UsageRecord.js"
export * as UsageStore from "./usage/UsageStore.js"
export * as ReportingPeriod from "./usage/ReportingPeriod.js"
export * as Usage from "./usage/Usage.js"
export * as UsageErrors from "./usage/UsageErrors.js"
export * as UsageReport from "./usage/UsageReport.js"

// Outbound HTTP: the one guarded way out
export * as AllowList from "./outbound/AllowList.js"
export * as Destination from "./outbound/Destination.js"
export * as HostResolver from "./outbound/HostResolver.js"
export * as IpAddress from "./outbound/IpAddress.js"
export * as OutboundHttp from "./outbound/OutboundHttp.js"
export * as OutboundPolicy from "./outbound/OutboundPolicy.js"
export * as RefusedRanges from "./outbound/RefusedRanges.js"

// Webhooks
export * as WebhookDelivery from "./webhooks/WebhookDelivery.js"
export * as WebhookDispatcher from "./webhooks/WebhookDispatcher.js"
export * as WebhookEndpoint from "./webhooks/WebhookEndpoint.js"
export * as WebhookErrors from "./webhooks/WebhookErrors.js"
export * as WebhookPayloads from "./webhooks/WebhookPayloads.js"
export * as WebhookRetry from "./webhooks/WebhookRetry.js"
export * as Webhooks from "./webhooks/Webhooks.js"
export * as WebhookSender from "./webhooks/WebhookSender.js"
export * as WebhookSignature from "./webhooks/WebhookSignature.js"
export * as WebhookStore from "./webhooks/WebhookStore.js"

// Wiring
export * as InMemory from "./memory/InMemory.js"
export * as MemoryDatabase from "./memory/MemoryDatabase.js"
export * as MemoryTelephony from "./memory/MemoryTelephony.js"
export * as Services from "./Services.js"
export * as SimulatedEngine from "./SimulatedEngine.js"

// Quotas per organization
export * as QuotaErrors from "./quotas/QuotaErrors.js"
export * as Quotas from "./quotas/Quotas.js"
