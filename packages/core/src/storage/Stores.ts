import type { AgentStore } from "../agents/AgentStore.js"
import type { AnalysisJobStore } from "../analysis/AnalysisJobStore.js"
import type { CampaignStore } from "../campaigns/CampaignStore.js"
import type { CallFragmentStore } from "../calls/CallFragmentStore.js"
import type { ChannelStore } from "../calls/ChannelStore.js"
import type { DoNotCallStore } from "../do-not-call/DoNotCallStore.js"
import type { IdempotencyStore } from "../idempotency/IdempotencyStore.js"
import type { ImprovementStore } from "../improvements/ImprovementStore.js"
import type { IntegrationStore } from "../integrations/IntegrationStore.js"
import type { DocumentStore } from "../knowledge-base/DocumentStore.js"
import type { ApiKeyStore } from "../organizations/ApiKeyStore.js"
import type { OrganizationStore } from "../organizations/OrganizationStore.js"
import type { PhoneNumberStore } from "../phone-numbers/PhoneNumberStore.js"
import type { RunStore } from "../runs/RunStore.js"
import type { CredentialStore } from "../tools/CredentialStore.js"
import type { ToolStore } from "../tools/ToolStore.js"
import type { TriggerStore } from "../triggers/TriggerStore.js"
import type { UsageStore } from "../usage/UsageStore.js"
import type { WebhookStore } from "../webhooks/WebhookStore.js"
import type { Transactions } from "./Transactions.js"

/** Every storage port: what a storage adapter (in-memory, SQL) provides. */
export type Stores =
  | Transactions
  | OrganizationStore
  | ApiKeyStore
  | AgentStore
  | ImprovementStore
  | RunStore
  | ChannelStore
  | CallFragmentStore
  | DoNotCallStore
  | PhoneNumberStore
  | ToolStore
  | CredentialStore
  | DocumentStore
  | CampaignStore
  | UsageStore
  | IntegrationStore
  | TriggerStore
  | IdempotencyStore
  | WebhookStore
  | AnalysisJobStore
