/**
 * @voice-agent-platform/core: the domain of the Voice Agent Platform API.
 *
 * Models and pure rules need nothing but their inputs; services are Effect layers over ports; every
 * port has an in-memory adapter (see `InMemory`).
 */

// Shared building blocks
export * as Money from "./money/Money.js"
export * as Page from "./pagination/Page.js"
export * as SecureRandom from "./randomness/SecureRandom.js"
export * as Stores from "./storage/Stores.js"
export * as Transactions from "./storage/Transactions.js"

// Organizations and API keys
export * as ApiKey from "./organizations/ApiKey.js"
export * as ApiKeyStore from "./organizations/ApiKeyStore.js"
export * as Organization from "./organizations/Organization.js"
export * as OrganizationErrors from "./organizations/OrganizationErrors.js"
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

// Improvements
export * as Improvement from "./improvements/Improvement.js"
export * as ImprovementDecision from "./improvements/ImprovementDecision.js"
export * as ImprovementErrors from "./improvements/ImprovementErrors.js"
export * as Improvements from "./improvements/Improvements.js"
export * as ImprovementStore from "./improvements/ImprovementStore.js"

// Calls: gates, channels, telephony
export * as CallErrors from "./calls/CallErrors.js"
export * as CallingHours from "./calling-hours/CallingHours.js"
export * as CallPlacement from "./calls/CallPlacement.js"
export * as ChannelStore from "./calls/ChannelStore.js"
export * as OutboundChannels from "./calls/OutboundChannels.js"
export * as Telephony from "./calls/Telephony.js"
export * as TimeZoneCandidates from "./calling-hours/TimeZoneCandidates.js"
export * as DoNotCallEntry from "./do-not-call/DoNotCallEntry.js"
export * as DoNotCallStore from "./do-not-call/DoNotCallStore.js"

// Runs and transcripts
export * as Run from "./runs/Run.js"
export * as RunErrors from "./runs/RunErrors.js"
export * as RunId from "./runs/RunId.js"
export * as RunStore from "./runs/RunStore.js"
export * as InitialContextTemplate from "./templates/InitialContextTemplate.js"
export * as Transcript from "./transcripts/Transcript.js"
export * as TranscriptFile from "./transcripts/TranscriptFile.js"
export * as Transcripts from "./transcripts/Transcripts.js"
export * as TranscriptTurns from "./transcripts/TranscriptTurns.js"
export * as BlobStore from "./files/BlobStore.js"

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
export * as CredentialStore from "./tools/CredentialStore.js"
export * as Document from "./knowledge-base/Document.js"
export * as DocumentStore from "./knowledge-base/DocumentStore.js"
export * as IntegrationConnection from "./integrations/IntegrationConnection.js"
export * as IntegrationErrors from "./integrations/IntegrationErrors.js"
export * as IntegrationStore from "./integrations/IntegrationStore.js"
export * as Tool from "./tools/Tool.js"
export * as ToolDefinition from "./tools/ToolDefinition.js"
export * as ToolStore from "./tools/ToolStore.js"
export * as UsageRecord from "./usage/UsageRecord.js"
export * as UsageStore from "./usage/UsageStore.js"

// Wiring
export * as InMemory from "./memory/InMemory.js"
export * as MemoryDatabase from "./memory/MemoryDatabase.js"
export * as MemoryTelephony from "./memory/MemoryTelephony.js"
export * as Services from "./Services.js"
